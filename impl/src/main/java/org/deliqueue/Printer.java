package org.deliqueue;

/**
 * Where dumps and dispatch logs go, one line per call, as Android's {@code android.util.Printer}. A lambda is
 * enough: {@code System.out::println}, {@code lines::add}.
 */
@FunctionalInterface
public interface Printer {

    /** Writes one line ({@code x} carries no line terminator). */
    void println(String x);
}
