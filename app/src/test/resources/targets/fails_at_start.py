raise SystemExit("remora-test: this target refuses to start")
