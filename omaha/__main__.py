from omaha.cli import main

raise SystemExit(main())
