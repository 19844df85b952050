import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.server.RMISocketFactory;
import java.util.Arrays;

/**
 * Launcher used by tlc-dist.sh: runs {@code main} of the class named by the first argument (TLCServer or
 * TLCWorker) with every RMI socket of the JVM on the loopback interface. TLC creates its RMI registry and exports
 * its remote objects with the default socket factory, which listens on every interface (0.0.0.0) and connects to
 * whatever host a stub names; the factory installed here binds each RMI server socket to 127.0.0.1 and refuses
 * client connections to any address that is not loopback. {@code -Djava.rmi.server.hostname=127.0.0.1} makes the
 * stubs name 127.0.0.1.
 */
public final class Loopback {
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: Loopback <main class> [args...]");
            System.exit(2);
        }
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        RMISocketFactory.setSocketFactory(new RMISocketFactory() {
            @Override
            public Socket createSocket(String host, int port) throws IOException {
                for (InetAddress a : InetAddress.getAllByName(host)) {
                    if (!a.isLoopbackAddress()) {
                        throw new IOException("tlc-dist: refusing RMI connection to non-loopback " + host + ":" + port);
                    }
                }
                return new Socket(lo, port);
            }

            @Override
            public ServerSocket createServerSocket(int port) throws IOException {
                return new ServerSocket(port, 50, lo);
            }
        });
        Class.forName(args[0]).getMethod("main", String[].class)
                .invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }
}
