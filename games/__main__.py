"""`python -m games`: the engines on the command line."""

from games.cli import main

raise SystemExit(main())
