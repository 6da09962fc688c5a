import sys

from contractc.cli import main

sys.exit(main())
