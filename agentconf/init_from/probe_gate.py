"""`agentconf init --from`: a shell behind a permission engine, found by what it does. Some
shells decline most programs (an allow-list, a policy asking for approval) without listing
them anywhere the draft can read: every check needing a declined program failed, charged to
the shell. Each program the checks run is tried once, harmlessly; where some are declined in
words of a refusal, the ones that ran are drafted as `[tools.bash] allowed_programs`, so a
check that needs another is n/a, never failed.

A refusal is known by its words where they are English, and by its shape in any language: every
harmless command should run, so two or more of them failing with one text that differs only by
the program (and command) it names are one gate's refusals, whatever words it says them in.
"""

import re

from agentconf.harness.session.client import Client
from agentconf.harness.verdicts.errors import ContractViolation, ImplementationFailure
from agentconf.harness.verdicts.wording import says_refusal
from agentconf.init_from.findings import Findings

# Each program (or builtin) the suites' commands run, and a harmless way to run it.
TRIED: dict[str, str] = {
    "echo": "echo agentconf-gate", "printf": "printf ''", "true": "true", "pwd": "pwd",
    "cd": "cd .", "export": "export AGENTCONF_GATE=1", "sh": "sh -c true", "sleep": "sleep 0",
    "cat": "cat /dev/null", "head": "head -c 0 /dev/null", "tr": "tr a a </dev/null",
    "wc": "wc -c </dev/null", "seq": "seq 0", "ls": "ls -d .", "kill": "kill -0 $$",
    "mkdir": "mkdir -p agentconf-gate", "rm": "rm -f agentconf-gate-none",
    "exit": "(exit 0)", "trap": "(trap '' TERM)", "read": "read -r line </dev/null",
}
# What a permission engine says when it declines, beyond a refusal's usual words.
_DECLINED = re.compile(r"(?i)not (?:allowed|permitted|approved)|permission|denied|declined|"
                       r"blocked|forbidden|allow-?list|whitelist|policy|approval")


def permission_gate(client: Client, found: Findings) -> list[str] | None:
    """Tries every program once; drafts `allowed_programs` where some were declined, and
    returns them (None: no gate seen, or its description lists them already)."""
    listed = getattr(client.profile.tool("bash"), "allowed_programs", None)
    if listed:
        return list(listed)
    answers: dict[str, tuple[bool, str]] = {}
    for program, command in TRIED.items():
        try:
            result = client.call("bash", command=command)
        except (ImplementationFailure, ContractViolation):
            continue
        said = result.data.strip()
        answers[program] = (not result.success or says_refusal(said), said)
    shared = _one_refusal(answers)
    declined = {program: said[:80] for program, (refused, said) in answers.items()
                if refused and (_DECLINED.search(said) or _template(program, said) in shared)}
    # the rest ran, whatever they answered (`read` at the end of input fails)
    ran = [program for program in answers if program not in declined]
    if not declined or not ran:
        return None
    found.keys.setdefault("bash", {})["allowed_programs"] = ran
    first = next(iter(declined.items()))
    found.evidence.setdefault("bash", []).append(
        f"probe: it declined {', '.join(declined)} ({first[0]}: {first[1]!r}) and ran "
        f"{', '.join(ran)}: checks needing another program are n/a")
    return ran


def _template(program: str, said: str) -> str:
    """An answer with the command and the program it names taken out."""
    text = said.replace(TRIED[program], "\0")
    return re.sub(rf"(?<![\w-]){re.escape(program)}(?![\w-])", "\0", text)


def _one_refusal(answers: dict[str, tuple[bool, str]]) -> set[str]:
    """The templates of failed answers that two or more programs share, each naming its own
    program: one gate saying the same refusal of each (a shell's own failures differ by more
    than the name)."""
    seen: dict[str, int] = {}
    for program, (refused, said) in answers.items():
        template = _template(program, said)
        if refused and template != said and not _names_its_file(program, said):
            seen[template] = seen.get(template, 0) + 1
    return {template for template, count in seen.items() if count >= 2}


def _names_its_file(program: str, said: str) -> bool:
    """A failure naming the file its command reads (`cat: /dev/null: No such file or directory`
    on a shell whose filesystem has no /dev): an error about that file, which every program
    given it says alike, not a gate's refusal of the program."""
    return any(word.lstrip("<>") in said for word in TRIED[program].split() if "/" in word)
