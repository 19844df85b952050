package org.deliqueue.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A small SVG line chart: categorical x axis, logarithmic y axis, one polyline per series. */
public final class Svg {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
    private static final int W = 800;
    private static final int H = 420;
    private static final int LEFT = 80;
    private static final int RIGHT = 280;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;

    /** One line; NaN values leave a gap. */
    public record Series(String name, double[] values, boolean dashed) {
    }

    public static String logChart(String title, String xLabel, String yLabel, List<String> xs, List<Series> series) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double v : s.values()) {
                if (v > 0 && !Double.isNaN(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        if (lo == Double.POSITIVE_INFINITY) {
            lo = 1;
            hi = 10;
        }
        double dlo = Math.floor(Math.log10(lo));
        double dhi = Math.ceil(Math.log10(hi));
        if (dhi <= dlo) {
            dhi = dlo + 1;
        }
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", W, H, W, H));
        b.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                LEFT, esc(title)));
        // y grid and labels, one per decade
        for (int d = (int) dlo; d <= (int) dhi; d++) {
            double y = TOP + ph - (d - dlo) / (dhi - dlo) * ph;
            b.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, y, LEFT + pw, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 6, y + 4, decade(d)));
        }
        // x labels
        int nx = xs.size();
        double[] xpos = new double[nx];
        for (int k = 0; k < nx; k++) {
            xpos[k] = LEFT + (nx == 1 ? pw / 2.0 : k * (double) pw / (nx - 1));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    xpos[k], TOP + ph + 18, esc(xs.get(k))));
        }
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", LEFT, TOP, pw, ph));
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + pw / 2.0, H - 18, esc(xLabel)));
        b.append(String.format(Locale.ROOT, "<text transform=\"translate(18,%.1f) rotate(-90)\" "
                + "text-anchor=\"middle\">%s</text>%n", TOP + ph / 2.0, esc(yLabel)));
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            String color = COLORS[si % COLORS.length];
            List<String> pts = new ArrayList<>();
            for (int k = 0; k < Math.min(nx, s.values().length); k++) {
                double v = s.values()[k];
                if (!(v > 0) || Double.isNaN(v)) {
                    continue;
                }
                double y = TOP + ph - (Math.log10(v) - dlo) / (dhi - dlo) * ph;
                pts.add(String.format(Locale.ROOT, "%.1f,%.1f", xpos[k], y));
                b.append(String.format(Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s: %s</title></circle>%n",
                        xpos[k], y, color, esc(s.name()), Report.fmt(v)));
            }
            if (pts.size() > 1) {
                b.append(String.format(Locale.ROOT,
                        "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                        String.join(" ", pts), color, s.dashed() ? " stroke-dasharray=\"6,4\"" : ""));
            }
            int ly = TOP + 10 + si * 20;
            b.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    LEFT + pw + 12, ly, LEFT + pw + 36, ly, color, s.dashed() ? " stroke-dasharray=\"6,4\"" : ""));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n",
                    LEFT + pw + 42, ly + 4, esc(s.name())));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static String decade(int d) {
        if (d >= 0 && d <= 6) {
            return String.format(Locale.ROOT, "%d", (long) Math.pow(10, d));
        }
        if (d < 0 && d >= -3) {
            return String.format(Locale.ROOT, "%s", Double.toString(Math.pow(10, d)));
        }
        return "1e" + d;
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
