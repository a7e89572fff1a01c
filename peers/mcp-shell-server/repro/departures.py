"""Every departure of mcp-shell-server 1.1.14 the kit reported, shown with nothing but Python and
the installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/mcp-shell-server/repro/departures.py

shell_execute is judged as the contract's exec (an argv, no shell): its SHELL clauses are n/a.
"""

from mcp_stdio import ALLOW, Departures, Sandbox, Server

d = Departures()

with Sandbox() as box, Server(box, env=ALLOW) as s:

    def run(*argv, **k):
        return s.call("shell_execute", command=list(argv), **k)

    # EXEC-01: an empty argument is dropped before the program sees it
    answer = run("printf", "<%s>", "one two", "", "three")
    d.check(
        "EXEC-01",
        answer is not None and "<one two><><three>" not in answer[1],
        "an empty argument never reaches the program: printf gets two arguments, not three",
        answer,
    )

    # EXEC-02: shell syntax in argv is the server's own: refused, or run as a redirection or pipe
    for token in (";", "&&"):
        answer = run("echo", "said", token, "touch", "pwned.txt")
        d.check(
            "EXEC-02",
            answer is not None and answer[0] and "Unexpected shell operator" in answer[1],
            f"an argument {token!r} is refused as a shell operator, not passed to echo",
            answer,
        )
    for text in ("`touch pwned.txt`", "x\ntouch pwned.txt"):
        answer = run("echo", "said", text)
        d.check(
            "EXEC-02",
            answer is not None and answer[0] and "Unexpected shell operator" in answer[1],
            f"an argument {text!r} is refused as a shell operator",
            answer,
        )
    answer = run("echo", "said", ">", "pwned.txt")
    made = (box.root / "pwned.txt").exists()
    d.check(
        "EXEC-02",
        made,
        "an argument '>' redirects: echo's output lands in pwned.txt, the answer is empty",
        (answer, (box.root / "pwned.txt").read_text() if made else None),
    )
    answer = run("echo", "said", "|", "cat")
    d.check(
        "EXEC-02",
        answer is not None and not answer[0] and answer[1].strip() == "said",
        "an argument '|' builds a pipeline: echo said | cat answers 'said', not 'said | cat'",
        answer,
    )
    answer = run("echo", "said", "|", "tee", "pwned.txt")
    d.check(
        "EXEC-02",
        answer is not None and answer[0] and "Command not allowed: tee" in answer[1],
        "an argument '|' makes the next argument a program, refused when not allowed",
        answer,
    )

    # Not departures, the shape the profile stands on: sh and bash are refused by its default
    # policy whatever ALLOW_COMMANDS says, so the EXEC checks running sh are n/a
    for shell in ("sh", "bash"):
        with Server(box, env={"ALLOW_COMMANDS": f"echo,{shell}"}) as other:
            answer = other.call("shell_execute", command=[shell, "-c", "echo hello"])
        print(f"(shape)   {shell} listed in ALLOW_COMMANDS is refused: {answer!r:.160}")

    tools = s.tools()
    d.check(
        "REGISTRY-05",
        not any((t.get("annotations") or {}).get("kind") for t in tools),
        "(SHOULD) shell_execute declares no kind",
    )
    d.check(
        "ANNOTATION-04",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) shell_execute declares no behaviour hints (readOnlyHint)",
    )

d.finish()
