import sys

from fsdp_lint.cli import main

sys.exit(main())
