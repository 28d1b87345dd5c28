"""The bridge's link to the daemon: hello, welcome, then messages one per frame; reconnects by itself.

While the daemon is away the bridge keeps watching iTerm2 and drops what it cannot send; on every (re)connection it
re-sends what it knows now (sessions, variables, screens), so the daemon's panes come back whole. Events (prompt
marks, keys, focus) are never replayed: arriving late, they would carry the wrong time.
"""
import asyncio
import json
import logging

import ws_client

PROTOCOL_VERSION = 1
#: Reconnect backoff: the first retry soon (a daemon restarting), then no more often than this.
RETRY_FIRST_S = 0.5
RETRY_MAX_S = 10.0
#: The daemon answers hello at once; a link without a welcome this long after hello is dead.
WELCOME_TIMEOUT_S = 10.0
#: Messages waiting for the socket beyond this are dropped (the daemon is stuck; iTerm2 must not be held back).
MAX_QUEUED = 2000
#: Close code the daemon sends to a bridge replaced by a newer one: stop instead of taking turns with it.
CLOSE_REPLACED = 4001
#: Text the daemon may ask to type in one message (the daemon's own limit).
MAX_SEND_TEXT = 64 << 10

log = logging.getLogger("iterm2_bridge")


class Replaced(Exception):
    """A newer bridge took over this daemon: this one stops."""


class DaemonLink:
    def __init__(self, find_target, hello, replay, on_send_text, connect=ws_client.connect, sleep=asyncio.sleep, on_activate=None):
        """
        :param find_target: () -> (ws url, token) or None, looked up before every attempt.
        :param hello: the hello message's fields besides type and v.
        :param replay: () -> messages describing the current state, sent first on every connection.
        :param on_send_text: async (session, text) -> None, for the daemon's send_text requests.
        :param on_activate: async (session) -> None, for the daemon's activate requests (a jump); raises when
            iTerm2 could not, and the daemon is told why.
        """
        self._find_target = find_target
        self._hello = hello
        self._replay = replay
        self._on_send_text = on_send_text
        self._on_activate = on_activate
        self._connect = connect
        self._sleep = sleep
        self._queue = None
        self.welcomed = False
        #: Welcomes received so far (a link that came up resets the backoff when it drops).
        self.welcomes = 0
        self.dropped = 0
        self.connected_event = None

    def send(self, message):
        """Queues a message for the daemon; False (dropped) while not connected or when the daemon is behind."""
        if not self.welcomed:
            return False
        try:
            self._queue.put_nowait(message)
            return True
        except asyncio.QueueFull:
            self.dropped += 1
            return False

    async def run(self):
        """Connects, and reconnects with backoff, until a newer bridge replaces this one (raises Replaced)."""
        self._queue = asyncio.Queue(MAX_QUEUED)
        self.connected_event = asyncio.Event()
        delay = RETRY_FIRST_S
        while True:
            target = self._find_target()
            if target is None:
                log.info("no daemon found (start one with `termsupervisor daemon`); retrying in %.1f s", delay)
            else:
                welcomes = self.welcomes
                level = logging.INFO
                try:
                    await self._session(*target)
                    why = "daemon link ended"
                except Replaced:
                    raise
                except ws_client.HandshakeError as e:
                    level = logging.WARNING
                    why = "daemon link refused: " + ("the daemon refused the token" if e.status == 401 else str(e))
                except (OSError, asyncio.TimeoutError, ws_client.WebSocketClosed, ValueError) as e:
                    why = f"daemon link down ({e or type(e).__name__})"
                if self.welcomes != welcomes:  # it was up: a daemon restarting is worth retrying soon
                    delay = RETRY_FIRST_S
                log.log(level, "%s; retrying in %.1f s", why, delay)
            await self._sleep(delay)
            delay = min(delay * 2, RETRY_MAX_S)

    async def _session(self, url, token):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        ws = await self._connect(url, headers)
        try:
            await ws.send(json.dumps({"type": "hello", "v": PROTOCOL_VERSION, **self._hello}))
            welcome = json.loads(await ws_client.within(ws.recv(), WELCOME_TIMEOUT_S))
            if not isinstance(welcome, dict) or welcome.get("type") != "welcome":
                raise ValueError("the daemon did not welcome the bridge")
            # Stale messages from a dead link go; the current state goes first. No await in between: nothing new
            # can be queued before the replay.
            while not self._queue.empty():
                self._queue.get_nowait()
            for m in self._replay():
                self._queue.put_nowait(m)
            self.welcomed = True
            self.welcomes += 1
            self.connected_event.set()
            log.info("connected to the daemon at %s (daemon %s)", url, welcome.get("daemon", "?"))
            await self._pump(ws)
        except ws_client.WebSocketClosed as e:
            if e.code == CLOSE_REPLACED:
                log.warning("a newer bridge replaced this one: stopping")
                raise Replaced() from e
            raise
        finally:
            self.welcomed = False
            self.connected_event.clear()
            await ws.close()

    async def _pump(self, ws):
        """Writes queued messages and reads the daemon's until either side ends."""
        writer = asyncio.ensure_future(self._write(ws))
        reader = asyncio.ensure_future(self._read(ws))
        try:
            done, _ = await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                t.result()  # raises what ended the link
        finally:
            for t in (writer, reader):
                t.cancel()
            await asyncio.gather(writer, reader, return_exceptions=True)

    async def _write(self, ws):
        while True:
            m = await self._queue.get()
            await ws.send(json.dumps(m, ensure_ascii=False))

    async def _read(self, ws):
        while True:
            raw = await ws.recv()
            try:
                m = json.loads(raw)
            except ValueError:
                log.warning("daemon sent something that is not JSON: ignored")
                continue
            if not isinstance(m, dict):
                continue
            if m.get("type") == "send_text":
                session, text = m.get("session"), m.get("text")
                if isinstance(session, str) and isinstance(text, str) and len(text) <= MAX_SEND_TEXT:
                    try:
                        await self._on_send_text(session, text)
                    except Exception as e:  # iTerm2 away or the session gone: the link itself is fine
                        log.warning("send_text to session %s failed: %s", session, e)
                else:
                    log.warning("malformed send_text from the daemon: ignored")
            elif m.get("type") == "activate":
                await self._activate(m)
            else:
                log.debug("daemon message %r ignored", m.get("type"))

    async def _activate(self, m):
        """Shows a session to the person (a jump) and answers with what iTerm2 did, under the request's id."""
        session, rid = m.get("session"), m.get("id")
        if not isinstance(session, str) or not isinstance(rid, int) or isinstance(rid, bool) or rid < 1:
            log.warning("malformed activate from the daemon: ignored")
            return
        answer = {"type": "activated", "session": session, "id": rid, "ok": True}
        try:
            if self._on_activate is None:
                raise LookupError("this bridge cannot activate sessions")
            await self._on_activate(session)
        except Exception as e:  # iTerm2 away or the session gone: the daemon tells the person
            answer.update(ok=False, error=(str(e) or type(e).__name__)[:500])
        # Through the queue: the writer is the socket's one sender (two sends at once could interleave frames).
        try:
            self._queue.put_nowait(answer)
        except asyncio.QueueFull:
            self.dropped += 1
