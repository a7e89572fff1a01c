"""read_file on real files: numbering, windows that stream, refusals that say what to do."""

import os
import threading
from collections.abc import Callable

from reference_box import Box

from agentconf.contract import DEFAULT_LIMITS


def test_every_line_comes_back_numbered_like_cat_n(box: Box) -> None:
    box.write("a.txt", "alpha\nbeta\r\ngamma")
    answer = box.call("read_file", path="a.txt")
    assert answer == {"success": True, "data": "     1\talpha\n     2\tbeta\n     3\tgamma"}


def test_a_window_returns_exactly_its_lines(box: Box) -> None:
    box.write("a.txt", "".join(f"line {n}\n" for n in range(1, 11)))
    answer = box.call("read_file", path="a.txt", start_line=3, end_line=5)
    assert answer["data"] == "     3\tline 3\n     4\tline 4\n     5\tline 5"


def test_a_window_of_a_file_larger_than_the_read_limit_succeeds(
    box_with: Callable[..., Box],
) -> None:
    box = box_with(limits={"max_read_bytes": 1024})
    box.write("big.log", "".join(f"entry {n}\n" for n in range(1, 5001)))
    whole = box.call("read_file", path="big.log")
    assert whole["error"] == "FILE_TOO_LARGE"
    assert "start_line" in whole["data"]
    window = box.call("read_file", path="big.log", start_line=4999)
    assert window["data"] == "  4999\tentry 4999\n  5000\tentry 5000"


def test_a_window_past_the_end_says_how_many_lines_there_are(box: Box) -> None:
    box.write("a.txt", "one\ntwo\n")
    answer = box.call("read_file", path="a.txt", start_line=10, end_line=20)
    assert answer["success"] and "has 2 lines" in answer["data"]


def test_an_end_before_the_start_is_invalid(box: Box) -> None:
    box.write("a.txt", "one\n")
    answer = box.call("read_file", path="a.txt", start_line=5, end_line=2)
    assert answer["error"] == "INVALID_ARGS" and answer["issues"][0]["path"] == "$.end_line"


def test_an_empty_file_says_it_is_empty(box: Box) -> None:
    box.write("empty.txt", b"")
    answer = box.call("read_file", path="empty.txt")
    assert answer["success"] and "empty" in answer["data"]


def test_a_bom_is_not_shown_as_part_of_the_first_line(box: Box) -> None:
    box.write("bom.txt", "\ufeffhello\n".encode())
    assert box.call("read_file", path="bom.txt")["data"] == "     1\thello"


def test_a_binary_file_returns_none_of_its_bytes(box: Box) -> None:
    box.write("blob.bin", b"PK\x03\x04\x00\x00secret-bytes")
    answer = box.call("read_file", path="blob.bin")
    assert answer["error"] == "BINARY_FILE" and "secret-bytes" not in answer["data"]


def test_invalid_utf8_after_the_sniff_window_is_still_binary(box: Box) -> None:
    box.write("late.txt", b"ok\n" * 5000 + b"\xff\xfe tail\n")
    answer = box.call("read_file", path="late.txt")
    assert answer["error"] == "BINARY_FILE" and "line 5001" in answer["data"]


def test_a_missing_file_is_not_found_and_says_how_to_look(box: Box) -> None:
    answer = box.call("read_file", path="nope/missing.txt")
    assert answer["error"] == "NOT_FOUND"
    assert "list_files" in answer["data"] and str(box.root) not in answer["data"]


def test_a_folder_is_not_a_file(box: Box) -> None:
    (box.root / "dir").mkdir()
    assert box.call("read_file", path="dir")["error"] == "IS_DIRECTORY"


def test_a_fifo_is_refused_at_once_instead_of_blocking(box: Box) -> None:
    os.mkfifo(box.root / "pipe")
    answers: list[dict[str, object]] = []
    worker = threading.Thread(target=lambda: answers.append(box.call("read_file", path="pipe")))
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "read_file blocked on a FIFO"
    assert answers[0]["success"] is False and answers[0]["error"] == "IO_ERROR"


def test_output_beyond_the_limit_keeps_head_and_tail_with_a_count(
    box_with: Callable[..., Box],
) -> None:
    box = box_with(limits={"max_output_chars": 400})
    box.write("a.txt", "".join(f"row {n}\n" for n in range(1, 501)))
    answer = box.call("read_file", path="a.txt")
    data = answer["data"]
    assert data.startswith("     1\trow 1\n") and data.endswith("   500\trow 500")
    assert "truncated" in data and len(data) <= 400 + DEFAULT_LIMITS.marker_budget_chars


def test_one_enormous_line_is_cut_instead_of_held_whole(box_with: Callable[..., Box]) -> None:
    box = box_with(limits={"max_output_chars": 100, "max_read_bytes": 10})
    box.write("wide.txt", "é" * 5000 + "\nnext\n")
    answer = box.call("read_file", path="wide.txt", start_line=1, end_line=2)
    assert answer["success"], answer
    assert "line cut" in answer["data"] and answer["data"].endswith("     2\tnext")
    assert "\ufffd" not in answer["data"]
