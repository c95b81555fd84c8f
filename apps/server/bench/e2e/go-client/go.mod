module agentplatform/benchclient

go 1.19
