from hatemoji_datasets.cli import main

raise SystemExit(main())
