package org.deliqueue.jpf.listener;

import gov.nasa.jpf.Config;
import gov.nasa.jpf.JPF;
import gov.nasa.jpf.ListenerAdapter;
import gov.nasa.jpf.jvm.bytecode.JVMInvokeInstruction;
import gov.nasa.jpf.search.Search;
import gov.nasa.jpf.vm.Instruction;
import gov.nasa.jpf.vm.ThreadInfo;
import gov.nasa.jpf.vm.VM;

/**
 * Makes every call of an atomic operation from application code a scheduling point of Java PathFinder.
 *
 * <p>JPF breaks a transition (lets another thread run) at accesses of shared fields, locks and thread operations.
 * It does not at a call: a VarHandle {@code compareAndSet} (a native peer in JPF) or an {@code AtomicInteger}
 * method (listed in {@code vm.shared.never_break_methods}, so no break happens inside either) runs in the same
 * transition as whatever precedes it. When the preceding instruction is no break either (a final field read, a
 * local computation), two atomic calls of one thread run back to back, and a lost update between them, such as
 * {@code v = a.get(); a.set(v + 1)}, is never explored. This listener breaks the transition right before each such
 * call, offering every runnable thread: the call then runs first in its own transition.
 *
 * <p>Matched calls: any method of a {@code java.util.concurrent.atomic} class, of {@code java.lang.invoke.VarHandle}
 * (or JPF's model of it, {@code JPFFieldVarHandle}), made by a class outside {@code java.}, {@code javax.},
 * {@code jdk.} and {@code sun.} (the library's own atomics, inside never-break methods, stay as they are).
 *
 * <p>It prints how many scheduling points it added when the search ends. Compiled by {@code jpf/bin/run-jpf.sh}
 * against the installed JPF's jars; enabled by the harnesses' {@code .jpf} files.
 */
public class AtomicSchedulingPoints extends ListenerAdapter {
    private long breaks;

    public AtomicSchedulingPoints(Config config, JPF jpf) {
    }

    @Override
    public void executeInstruction(VM vm, ThreadInfo ti, Instruction insn) {
        if (!(insn instanceof JVMInvokeInstruction) || ti.isFirstStepInsn()) {
            return; // not a call, or the call re-executed as the first step after our own break
        }
        JVMInvokeInstruction call = (JVMInvokeInstruction) insn;
        if (!isAtomic(call.getInvokedMethodClassName()) || isLibrary(insn.getMethodInfo().getClassName())) {
            return;
        }
        if (ti.reschedule("atomic call " + call.getInvokedMethodClassName() + "." + call.getInvokedMethodName())) {
            breaks++;
            ti.skipInstruction(insn); // run the call as the first step of the next transition
        }
    }

    @Override
    public void searchFinished(Search search) {
        System.out.println("AtomicSchedulingPoints: " + breaks + " scheduling points added at atomic calls");
    }

    static boolean isAtomic(String owner) {
        return owner != null && (owner.startsWith("java.util.concurrent.atomic.")
                || owner.equals("java.lang.invoke.VarHandle") || owner.equals("java.lang.invoke.JPFFieldVarHandle"));
    }

    static boolean isLibrary(String caller) {
        return caller.startsWith("java.") || caller.startsWith("javax.") || caller.startsWith("jdk.")
                || caller.startsWith("sun.");
    }
}
