"""`init --from`: a read's own output bound, larger than the contract's and stated nowhere.

A read of a file many times the contract's max_output_chars, answered cut to more than that and
saying so (`"truncated": true`, "[… characters omitted]"), shows the bound the implementation
keeps: drafted as `[tools.read_file].limits`, so TRUNCATE judges that bound, not one it was never
told. A read answered whole, or refused, drafts nothing: the contract's bound judges it.
"""

from agentconf.contract import DEFAULT_LIMITS
from agentconf.harness.session.answers import document_of, leaves
from agentconf.harness.session.client import Client
from agentconf.harness.verdicts.wording import CUT_SAID
from agentconf.init_from.findings import Findings, safely
from agentconf.init_from.probe_shell import cut_flag

# Many times the contract's bound: past the bounds real reads keep (half a megabyte and more).
_TIMES = 16


def own_read_bound(client: Client, found: Findings, name: str) -> None:
    limit = DEFAULT_LIMITS.max_output_chars
    if client.profile.tool("read_file").limits.model_dump(exclude_none=True):
        return
    big = client.root / name
    big.write_text(("z" * 79 + "\n") * (_TIMES * limit // 80), encoding="utf-8")
    label = f"a read of {big.stat().st_size} characters, {_TIMES} times the contract's bound"
    result = safely(lambda: client.call("read_file", path=big.name), found, label)
    big.unlink(missing_ok=True)
    if result is None or not result.success:
        return
    # The flag stands beside the text in the whole answer; the text is what the profile reads,
    # or, in a JSON answer no place was found for yet, its longest string.
    flag, text = cut_flag(result.shown), result.data
    if (document := document_of(text)) is not None:
        text = max((value for _, value in leaves(document) if isinstance(value, str)), key=len,
                   default=text)
    said = [line for line in text.splitlines() if CUT_SAID.search(line)]
    kept = len(text) - sum(len(line) + 1 for line in said)
    if kept <= limit + DEFAULT_LIMITS.marker_budget_chars or not (said or flag):
        return  # within the contract's bound, or not said to be cut (TRUNCATE-01 judges it)
    found.keys.setdefault("read_file", {})["limits"] = {"max_output_chars": kept}
    found.evidence.setdefault("read_file", []).append(
        f"probe: {label} answered {kept} characters saying it left part out "
        f"({(said[0].strip() if said else str(flag))[:60]!r}): a bound of its own, drafted as "
        f"max_output_chars = {kept} (check it: the truncation checks judge this bound)")
