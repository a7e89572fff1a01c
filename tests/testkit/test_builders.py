"""The fixtures kit's builders make the traps they promise, on a real disk.

Where the reference can judge a trap (an EOL sample's expected bytes, a binary file, a large file)
the test asks the reference itself, so the corpus and the contract cannot drift apart.
"""

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from agentconf.contract import CLAUSES, Workspace
from agentconf.reference import create
from agentconf.reference.sandbox.binary import SNIFF_BYTES, looks_binary
from agentconf.testkit import (
    EscapeDetected,
    binary_files,
    eol_corpus,
    escape_paths,
    fake_home,
    large_file,
    link_farm,
    sandbox,
)


def call(system: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    return asyncio.run(system.call_tool(tool, arguments))


def resolves_under(path: Path, folder: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


# ---------------------------------------------------------------- sandbox


def test_the_sandbox_is_removed_when_the_block_ends(tmp_path: Path) -> None:
    with sandbox(dir=tmp_path) as ws:
        base = ws.base
        assert ws.root.is_dir() and ws.secret in (ws.outside / "secret.txt").read_text()
    assert not base.exists()
    assert list(tmp_path.iterdir()) == []


def test_a_write_outside_the_root_fails_the_block_when_it_ends(tmp_path: Path) -> None:
    caught = pytest.raises(EscapeDetected, match=r"root_evil/planted\.txt")
    with caught, sandbox(dir=tmp_path) as ws:
        (ws.sibling / "planted.txt").write_text("escaped")
    assert list(tmp_path.iterdir()) == []


def test_a_sandbox_without_check_does_not_judge_its_block(tmp_path: Path) -> None:
    with sandbox(dir=tmp_path, check=False) as ws:
        (ws.outside / "secret.txt").write_text("changed on purpose")


def test_the_blocks_own_error_is_not_replaced_by_the_oracles(tmp_path: Path) -> None:
    with pytest.raises(KeyError), sandbox(dir=tmp_path) as ws:
        (ws.outside / "secret.txt").write_text("changed")
        raise KeyError("the test's own failure")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- link farm


@pytest.fixture
def ws(tmp_path: Path) -> Any:
    with sandbox(dir=tmp_path, check=False) as workspace:
        yield workspace


def test_every_escaping_path_of_the_link_farm_lands_outside_the_root(ws: Any) -> None:
    farm = link_farm(ws.root, ws.outside)
    for rel in farm.escaping:
        target = ws.root / rel
        assert not resolves_under(target, ws.root), rel
        assert resolves_under(target, ws.sandbox), rel  # out of the root, never out of the sandbox


def test_every_staying_path_of_the_link_farm_lands_inside_the_root(ws: Any) -> None:
    farm = link_farm(ws.root, ws.outside)
    for rel in farm.staying:
        assert resolves_under(ws.root / rel, ws.root), rel
    assert (ws.root / "link_in" / "inner.txt").read_text() == "inner\n"


def test_the_link_farm_loops_never_resolve(ws: Any) -> None:
    farm = link_farm(ws.root, ws.outside)
    for rel in farm.loops:
        with pytest.raises((OSError, RuntimeError)):
            (ws.root / rel).resolve(strict=True)


def test_the_middle_of_path_link_is_relative_and_climbs_out(ws: Any) -> None:
    farm = link_farm(ws.root, ws.outside)
    target = os.readlink(farm.links["sub/rel_out"])
    assert not os.path.isabs(target) and target.startswith("..")
    secret = (ws.outside / "secret.txt").read_text()
    assert (ws.root / "sub/rel_out/secret.txt").read_text() == secret


def test_the_dangling_link_points_at_a_file_that_does_not_exist_yet(ws: Any) -> None:
    farm = link_farm(ws.root, ws.outside)
    assert farm.links["dangling_out"].is_symlink() and not farm.links["dangling_out"].exists()


def test_building_the_link_farm_changes_nothing_outside_a_sandboxs_root(ws: Any) -> None:
    link_farm(ws.root, ws.outside)
    ws.oracle.check()


def test_the_link_farm_gives_a_bare_outside_folder_its_secret_file(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    farm = link_farm(tmp_path / "root", tmp_path / "elsewhere")
    assert (farm.links["link_out_file"]).read_text() == "outside secret\n"


# ---------------------------------------------------------------- escape paths


def _as_a_naive_tool_reads_it(ws: Any, raw: str) -> Path:
    return Path(os.path.expanduser(raw.removeprefix("@")))


def test_every_escape_path_leads_out_of_the_root_but_stays_in_the_sandbox(ws: Any) -> None:
    farm = link_farm(ws.root, ws.outside)
    for raw in escape_paths(ws, farm):
        target = ws.root / _as_a_naive_tool_reads_it(ws, raw)
        assert not resolves_under(target, ws.root), raw
        assert resolves_under(target, ws.sandbox), raw


def test_tilde_paths_are_offered_only_while_home_is_the_fake_one(
    ws: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(ws.base / "not-the-sandbox"))
    assert not any(path.startswith("~") for path in escape_paths(ws))
    monkeypatch.setenv("HOME", str(ws.home))
    assert "~/.ssh/authorized_keys" in escape_paths(ws)


def test_the_sibling_prefix_escape_fools_a_startswith_check(ws: Any) -> None:
    sibling = [p for p in escape_paths(ws) if ws.sibling.name in p and p.startswith("..")]
    assert sibling
    for raw in sibling:
        assert os.path.normpath(ws.root / raw).startswith(str(ws.root))


# ---------------------------------------------------------------- EOL corpus


def test_the_eol_corpus_is_written_byte_for_byte(tmp_path: Path) -> None:
    corpus = eol_corpus(tmp_path / "eol")
    assert {"crlf.txt", "lf.txt", "mixed.txt", "bom_lf.txt", "no_final_newline.txt"} <= set(corpus)
    for sample in corpus.values():
        assert sample.path.read_bytes() == sample.original
        assert sample.original != sample.expected


def test_every_eol_sample_names_clauses_of_the_contract(tmp_path: Path) -> None:
    for sample in eol_corpus(tmp_path).values():
        assert sample.clauses and all(CLAUSES[c].category == "EOL" for c in sample.clauses)


def test_the_reference_edits_every_eol_sample_into_exactly_its_expected_bytes(ws: Any) -> None:
    corpus = eol_corpus(ws.root / "eol")
    system = create(Workspace(root=ws.root))
    for sample in corpus.values():
        path = f"eol/{sample.name}"
        assert call(system, "read_file", path=path)["success"]
        answer = call(system, "edit_file", path=path, old_text=sample.old_text,
                      new_text=sample.new_text)
        assert answer["success"], (sample.name, answer)
        assert sample.path.read_bytes() == sample.expected, sample.name


# ---------------------------------------------------------------- binary files


def test_every_binary_file_is_binary_by_the_contracts_sniff(tmp_path: Path) -> None:
    made = binary_files(tmp_path)
    assert len(made) >= 5
    for name, path in made.items():
        head = path.read_bytes()[:SNIFF_BYTES]
        assert looks_binary(head, complete=True), name


def test_the_reference_refuses_to_read_every_binary_file(ws: Any) -> None:
    binary_files(ws.root / "bin")
    system = create(Workspace(root=ws.root))
    for name in sorted(os.listdir(ws.root / "bin")):
        answer = call(system, "read_file", path=f"bin/{name}")
        assert answer["error"] == "BINARY_FILE", (name, answer)


def test_the_png_sample_is_a_real_png(tmp_path: Path) -> None:
    import zlib

    data = binary_files(tmp_path)["image.png"].read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    # The first chunk's CRC, recomputed: a corrupt PNG would still look binary but lie.
    length = int.from_bytes(data[8:12], "big")
    body = data[12 : 16 + length]
    assert int.from_bytes(data[16 + length : 20 + length], "big") == zlib.crc32(body)


# ---------------------------------------------------------------- large file


def _filesystem_makes_holes(folder: Path) -> bool:
    probe = folder / "hole-probe"
    with probe.open("wb") as file:
        file.truncate(8 * 1024 * 1024)
        file.write(b"x")
    holes = probe.stat().st_blocks * 512 < probe.stat().st_size
    probe.unlink()
    return holes


def test_a_large_file_has_its_size_head_and_tail(tmp_path: Path) -> None:
    big = large_file(tmp_path / "big.log", 5_000_000, tail=b"THE END\n")
    assert big.path.stat().st_size == 5_000_000
    with big.path.open("rb") as file:
        assert file.read(len(big.head)) == big.head
        file.seek(5_000_000 - 8)
        assert file.read() == b"THE END\n"
    assert b"line 1 of a large file\n" in big.head and len(big.head) >= SNIFF_BYTES


def test_a_large_file_is_sparse_where_the_filesystem_allows(tmp_path: Path) -> None:
    if not _filesystem_makes_holes(tmp_path):
        pytest.skip("this filesystem stores no holes")
    assert large_file(tmp_path / "big.log", 2**30).sparse


def test_a_large_file_smaller_than_its_head_and_tail_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="smaller than head and tail"):
        large_file(tmp_path / "small.log", 100)


def test_the_reference_refuses_a_whole_read_of_a_large_file_but_reads_a_window(ws: Any) -> None:
    large_file(ws.root / "big.log")
    system = create(Workspace(root=ws.root))
    assert call(system, "read_file", path="big.log")["error"] == "FILE_TOO_LARGE"
    window = call(system, "read_file", path="big.log", start_line=2, end_line=3)
    assert window["success"] and "line 3 of a large file" in window["data"], window


# ---------------------------------------------------------------- fake home


def test_a_fake_home_holds_the_secret_in_private_files(tmp_path: Path) -> None:
    home = fake_home(tmp_path / "home", "s3cr3t")
    assert set(home.files) >= {".ssh/authorized_keys", ".ssh/id_ed25519", ".bashrc"}
    for path in home.files.values():
        assert "s3cr3t" in path.read_text()
    assert home.files[".ssh/id_ed25519"].stat().st_mode & 0o777 == 0o600


def test_a_fake_home_keeps_files_that_exist(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("mine\n")
    fake_home(tmp_path)
    assert (tmp_path / ".bashrc").read_text() == "mine\n"


def test_activating_a_fake_home_points_tilde_there_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "before"))
    home = fake_home(tmp_path / "home")
    with home.activated():
        assert Path("~").expanduser() == home.path
    assert os.environ["HOME"] == str(tmp_path / "before")
    assert home.environ({"PATH": "/bin"}) == {"PATH": "/bin", "HOME": str(home.path)}
