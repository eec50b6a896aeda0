# Never finishes: scripts/test-harness.sh checks that the runner's timeout fires.
sleep 100000
