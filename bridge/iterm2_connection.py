"""The bridge's connections to iTerm2: made on the bridge's own event loop, retried by the bridge, and each one
forgotten whole when it ends.

Why not iterm2's runner (`run_until_complete(main, retry=True)`): since the library's 2.11, `Connection.run` makes
and runs an event loop of its own (connection.py), so the daemon link, on the bridge's loop, would stand still for
as long as iTerm2 is connected. `Connection.async_create()` connects on the running loop in every version.

What a connection leaves behind in the library, and is removed here when it ends (a reconnect must find nothing of
the last one): notification handlers in the process-wide table (notifications.py `_get_handlers`: the dead App's
handlers would run first on the next connection, fail on their closed socket and stop the dispatch before the new
App's and the bridge's monitors run); the cached App (app.py `App.instance`, cleared by the disconnect callbacks that
`async_get_app` registers, connection.py `gDisconnectCallbacks`, which only the library's own runner calls); the
connection's message dispatcher task. And the cookie: iTerm2's cookies are single use, so ITERM2_COOKIE and
ITERM2_KEY are removed once a connection is made, as the library's runner does (connection.py `_remove_auth`); the
next connection asks iTerm2 for a new one through AppleScript (auth.py), which needs macOS.
"""
import asyncio
import logging
import os

log = logging.getLogger("iterm2_bridge")

#: The AppleScript runner the library uses when pyobjc's AppKit is absent (auth.py, CommandLineApplescriptRunner).
OSASCRIPT = "/usr/bin/osascript"
#: The library's authentication variables (connection.py `_cookie_and_key`).
COOKIE_VARS = ("ITERM2_COOKIE", "ITERM2_KEY")


class NoCookie(Exception):
    """No cookie to present and no AppleScript to ask iTerm2 for one."""


def applescript_available(it):
    """Can the library ask iTerm2 for a cookie (auth.py: AppKit, else /usr/bin/osascript)?"""
    auth = getattr(it, "auth", None)
    return bool(getattr(auth, "gAppKitAvailable", False)) or os.path.exists(OSASCRIPT)


def auth_disabled(it):
    """iTerm2 set to let any app connect without a cookie (auth.py `applescript_auth_disabled`)."""
    check = getattr(getattr(it, "auth", None), "applescript_auth_disabled", None)
    try:
        return bool(check and check())
    except Exception:  # noqa: BLE001  (a library without it: assume a cookie is needed)
        return False


def _handler_table(it):
    """The library's process-wide notification handler table (notifications.py), or None."""
    get = getattr(getattr(it, "notifications", None), "_get_handlers", None)
    return get() if get is not None else None


class ItermConnector:
    """Connects to iTerm2 (`connect`), and after the connection ends removes every trace of it (`forget`)."""

    def __init__(self, it):
        self.it = it
        self._table_before = {}
        self._failing = None  # the last failure's text, so a long outage is reported once, not every retry

    async def connect(self):
        it = self.it
        if not os.environ.get("ITERM2_COOKIE") and not auth_disabled(it) and not applescript_available(it):
            raise NoCookie(
                "no ITERM2_COOKIE and no AppleScript (osascript) to ask iTerm2 for one: run the bridge on the Mac "
                "where iTerm2 runs, from a terminal or as an iTerm2 AutoLaunch script")
        table = _handler_table(it)
        self._table_before = {k: list(v) for k, v in table.items()} if table is not None else {}
        connection = await it.Connection.async_create()
        # Spent: iTerm2 takes a cookie once. The next connection asks for a fresh one (AppleScript).
        for var in COOKIE_VARS:
            os.environ.pop(var, None)
        if self._failing is not None:
            log.info("connected to iTerm2")
        self._failing = None
        return connection

    def failed(self, error):
        """Says why iTerm2 could not be reached: once per kind of failure, then quietly at each retry."""
        text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        if isinstance(error, NoCookie):
            text = str(error)
        elif isinstance(error, (ConnectionRefusedError, FileNotFoundError)) or "refused" in text.lower():
            text = "iTerm2 is not running, or its Python API is off (Settings > General > Magic > Enable Python API)"
        elif "401" in text:
            text = "iTerm2 refused the cookie (it takes each one once); asking for a new one"
        level = logging.DEBUG if text == self._failing else logging.WARNING
        log.log(level, "cannot connect to iTerm2: %s", text)
        self._failing = text

    async def forget(self, connection):
        """Ends the connection and removes what it left in the library's process-wide state."""
        dispatcher = getattr(connection, "_Connection__dispatch_forever_future", None)
        if dispatcher is not None:
            # Cancelled, it ends quietly; ended by iTerm2 closing the socket, its error is read here, so asyncio
            # does not report it as never retrieved (the library has already printed it).
            dispatcher.cancel()
            await asyncio.gather(dispatcher, return_exceptions=True)
        websocket = getattr(connection, "websocket", None)
        close = getattr(websocket, "close", None)
        if close is not None:
            try:
                await close()
            except Exception as e:  # noqa: BLE001  (already closed by iTerm2)
                log.debug("closing the iTerm2 socket: %s", e)
        table = _handler_table(self.it)
        if table is not None:
            table.clear()
            table.update(self._table_before)
        module = getattr(self.it, "connection", None)
        callbacks = getattr(module, "gDisconnectCallbacks", None)
        if isinstance(callbacks, list):
            module.gDisconnectCallbacks = []
            for callback in callbacks:  # app.py's invalidate_app: the next connection builds a new App
                try:
                    callback()
                except Exception as e:  # noqa: BLE001
                    log.debug("a disconnect callback failed: %s", e)
        app_class = getattr(self.it, "App", None)
        if app_class is not None and getattr(app_class, "instance", None) is not None:
            app_class.instance = None


async def watch_iterm(bridge, connector, retry_s):
    """Connects to iTerm2 and watches it until it goes away, then again, for ever (the caller cancels it)."""
    while True:
        try:
            connection = await connector.connect()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001  (iTerm2 not running, no cookie, refused: all retried)
            connector.failed(e)
            await asyncio.sleep(retry_s)
            continue
        try:
            await bridge.run(connection)
        finally:
            await connector.forget(connection)
