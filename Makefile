# deliqueue: every entry point. `make help` lists them.
MVN       ?= mvn
MVN_FLAGS ?= -B -ntp
# Seconds each conformance stress test runs in `make test`; `make stress` raises it.
STRESS_SECONDS ?= 2

.PHONY: help build test stress clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 14

build: ## Compile every module and fetch every dependency (no tests)
	$(MVN) $(MVN_FLAGS) -q -DskipTests package

test: ## Conformance suite (legacy + DeliQueue), mutant controls, TLC CI model and spec mutants
	$(MVN) $(MVN_FLAGS) -Ddeliqueue.stress.seconds=$(STRESS_SECONDS) verify

stress: ## The conformance stress tests alone, for minutes (STRESS_SECONDS=120 by default here)
	$(MVN) $(MVN_FLAGS) -pl impl -Ddeliqueue.stress.seconds=$(if $(filter command line,$(origin STRESS_SECONDS)),$(STRESS_SECONDS),120) \
	  -Dtest='ConformanceStressTest' -Dsurefire.failIfNoSpecifiedTests=false verify

clean: ## Remove every build output
	$(MVN) $(MVN_FLAGS) -q clean
