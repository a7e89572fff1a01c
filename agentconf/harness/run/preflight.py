"""Before a run: the implementation started once in a sandbox of its own, its tools listed. A
start that fails is said at once, with its cause, and nothing is checked.

The sandbox is a temporary folder and goes, whatever happened: the kit leaves no temporary folder
behind. The logs a failed start's cause points to (its stderr) are kept where the run keeps its
report, and the cause names them there.
"""

import atexit
import contextlib
import shutil
import tempfile
import threading
from pathlib import Path

from agentconf.harness.disk.sandbox_workspace import HARNESS_DIR, SandboxWorkspace, remove_tree
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import ImplSpec
from agentconf.harness.verdicts.errors import ImplementationFailure

PREFLIGHT_TIMEOUT_S = 30.0


def preflight(spec: ImplSpec, timeout_s: float = PREFLIGHT_TIMEOUT_S,
              keep_logs_in: Path | None = None) -> str | None:
    """Starts the implementation once in a sandbox of its own and lists its tools: None when it
    did, else the cause (its error, its stderr). Runs in a thread, so that even a `python:`
    factory that never returns costs `timeout_s`, not the run. A failed start's logs are moved
    to `keep_logs_in` (the report folder's), and the cause names them there."""
    outcome: list[str | None] = []
    folder = Path(tempfile.mkdtemp(prefix="agentconf-preflight-"))

    def attempt() -> None:
        sandbox = SandboxWorkspace(base=folder)
        env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp,
                         call_timeout_s=min(timeout_s, 10.0), start_timeout_s=timeout_s,
                         log_dir=sandbox.logs,
                         extra_env=spec.environment(sandbox.root, sandbox.home, sandbox.tmp))
        try:
            adapter = open_adapter(spec, env)
        except ImplementationFailure as error:
            outcome.append(str(error))
            return
        except Exception as error:  # an import error of a python: factory, a bad command...
            outcome.append(f"{type(error).__name__}: {error}")
            return
        try:
            adapter.list_tools()
            outcome.append(None)
        except Exception as error:
            outcome.append(str(error) if isinstance(error, ImplementationFailure)
                           else f"{type(error).__name__}: {error}")
        finally:
            with contextlib.suppress(Exception):
                adapter.close()

    worker = threading.Thread(target=attempt, name="agentconf-preflight", daemon=True)
    worker.start()
    worker.join(timeout_s + 5.0)
    cause = outcome[0] if outcome else (
        f"no answer within {timeout_s:.0f} s (starting it, or to tools/list)")
    if cause is not None:
        cause = _logs_kept(folder / HARNESS_DIR, keep_logs_in, cause)
    if worker.is_alive():  # a start that never returned may still be writing there
        atexit.register(_remove, folder)
    else:
        _remove(folder)
    return cause


def _logs_kept(logs: Path, keep: Path | None, cause: str) -> str:
    """The cause, naming the logs where they are kept (`keep`), or, kept nowhere, as logs of
    the removed sandbox (their lines the cause quotes are all that is left)."""
    if keep is None or not logs.is_dir():
        return cause.replace(str(logs), "(the start's sandbox, removed)")
    with contextlib.suppress(OSError):
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(logs, keep)
        return cause.replace(str(logs), str(keep))
    return cause


def _remove(folder: Path) -> None:
    with contextlib.suppress(OSError):
        remove_tree(folder)
