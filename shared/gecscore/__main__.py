"""`python -m gecscore` = the `gecscore` command."""
import sys

from gecscore.cli import main

sys.exit(main())
