"""CANCEL-02 and CANCEL-03: write_file cancelled mid-way (notifications/cancelled), over ten
rounds on one server: its fs.writeFile truncates first and is not stopped by a cancel, so the
file is partial meanwhile and the cancelled write can land after the next one.

    python3 cancelled_write.py [path/to/mcp-server-filesystem/dist/index.cjs]
"""

import mcp_stdio  # first: it puts peers/ on sys.path, where _repro is
from _repro.cancelled_write import cancelled_writes

cancelled_writes(mcp_stdio.Server, "write_file")
