import sys

from agentconf.cli import main

sys.exit(main())
