import sys

from fsdp_lint.frontends.cli import main

sys.exit(main())
