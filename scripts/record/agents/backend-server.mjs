// What the fake model backends share: a loopback server handle for the recorder, and telling a reply the CLI closed
// before it ended (an interrupt) from one that finished streaming.

/** Whether the client closed `res` before the reply ended (logged once when it does). */
export function watchAbort(res, onEvent, now) {
  let aborted = false;
  res.on('close', () => {
    if (!res.writableFinished) {
      aborted = true;
      onEvent({ t: now(), kind: 'backend_stream_aborted_by_client' });
    }
  });
  return () => aborted;
}

/** Listens on 127.0.0.1 (a free port) and returns the recorder's handle: the base URL, how many scripted replies were
 * served, and close (open keep-alive connections dropped so it never waits on the CLI). */
export async function listenBackend(server, path, served) {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}${path}`,
    get served() {
      return served();
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

/** A request handler that gets the request's whole body (as text) once it has arrived. */
export function withBody(handle) {
  return (req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => handle(req, res, body));
  };
}
