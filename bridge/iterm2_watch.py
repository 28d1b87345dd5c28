"""The bridge's iTerm2 side: `ItermBridge.run(connection)` watches every session of one iTerm2 connection (the
layout, each session's screen, prompt marks, keys and variables, focus) and tells the daemon through `send`; it
types into a session and brings one forward when the daemon asks. iterm2_bridge.py wires it to the daemon link and
iterm2_connection.py gives it its connections."""
import asyncio
import logging

import ws_client

#: Session variables forwarded to the daemon (iTerm2's names).
VARIABLES = ("jobName", "jobPid", "commandLine", "tty", "terminalWindowName")
#: The daemon refuses longer names; titles are cut here, not refused there.
MAX_NAME = 80
#: The daemon's limits for one screen (docs/iterm2-bridge.md): rows per screen, characters per row.
MAX_ROWS = 1000
MAX_ROW_CHARS = 4000
#: A variable's value (a command line, a title) is cut to this; the daemon refuses longer ones.
MAX_VARIABLE_CHARS = 4096
#: Size used for a session whose grid iTerm2 did not report (a buried session).
DEFAULT_COLS, DEFAULT_ROWS = 80, 24
#: When the iterm2 library gives no way to await the connection's end, it is checked this often with a cheap RPC.
LIVENESS_S = 10.0
#: After a burst of screen changes goes quiet this long, the screen is read once more: iTerm2's ScreenStreamer drops
#: a change notified while the previous screen was being fetched, which could leave the last frame of a burst unsent.
SCREEN_SETTLE_S = 0.2

log = logging.getLogger("iterm2_bridge")


def cut(s, n):
    return s if len(s) <= n else s[: n - 1] + "…"


def classify_key(it, keystroke):
    """'enter' (submits), 'escape', 'interrupt' (Ctrl-C) or None: only keys that start or end a turn matter."""
    chars = keystroke.characters or ""
    try:
        mods = set(keystroke.modifiers)
    except (ValueError, TypeError):
        mods = set()
    try:
        code = keystroke.keycode
    except ValueError:  # a key iTerm2's Keycode enum does not name
        code = None
    if code in (it.Keycode.RETURN, it.Keycode.ANSI_KEYPAD_ENTER) or chars == "\r":
        # Shift/Option+Enter insert a newline in agents' prompts (Claude Code, Codex): not a submit.
        newline = {it.Modifier.SHIFT, it.Modifier.OPTION, it.Modifier.CONTROL, it.Modifier.COMMAND}
        return None if mods & newline else "enter"
    if code == it.Keycode.ESCAPE or chars == "\x1b":
        return "escape"
    if chars == "\x03":
        return "interrupt"
    return None


def normalize(name, value):
    """A variable's value as the protocol carries it: jobPid a whole number, the others strings; else None."""
    if name == "jobPid":
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return None
    return cut(value, MAX_VARIABLE_CHARS) if isinstance(value, str) else None


class ItermBridge:
    """The iTerm2 side: one instance for the bridge's life, `run(connection)` once per iTerm2 connection."""

    def __init__(self, it, send):
        """
        :param it: the `iterm2` module (a fake in tests).
        :param send: (message dict) -> bool, the daemon link's send.
        """
        self.it = it
        self.send = send
        self.sessions = {}  # session id -> the entry last listed to the daemon
        self.screens = {}  # session id -> the last screen message
        self.variables = {}  # session id -> {variable: value}
        self.columns = {}  # session id -> iTerm2's current column count
        self.watchers = {}  # session id -> its watching task
        self.focused = None
        self.app = None
        self.connection = None
        self.app_active = True
        self._kick = None
        self._stop = asyncio.Event()

    # ---- what the daemon is told on every (re)connection --------------------------------------------------

    def replay(self):
        out = [self._sessions_message()]
        for sid in self.sessions:
            for name, value in self.variables.get(sid, {}).items():
                out.append({"type": "variable", "session": sid, "name": name, "value": value})
            if sid in self.screens:
                out.append(self.screens[sid])
        return out

    def _sessions_message(self):
        return {"type": "sessions", "sessions": list(self.sessions.values())}

    # ---- one iTerm2 connection ----------------------------------------------------------------------------

    def stop(self):
        """Ends run() (the daemon link has stopped for good)."""
        self._stop.set()

    async def run(self, connection):
        """Watches iTerm2 until the connection ends. Never raises: iterm2's runner would end the process."""
        try:
            await self._run(connection)
            if not self._stop.is_set():
                log.info("iTerm2 went away (it quit, or its Python API was turned off)")
        except Exception as e:  # iTerm2 quit, or its API went away mid-call
            log.warning("iTerm2 connection ended: %s", e or type(e).__name__)
        finally:
            await self._lost()

    async def _run(self, connection):
        self.connection = connection
        app_class = getattr(self.it, "App", None)
        if app_class is not None and getattr(app_class, "instance", None) is not None:
            app_class.instance = None  # iterm2 caches its App per process: a new connection needs a new one
        self.app = await self.it.async_get_app(connection)
        self.app_active = self.app.app_active is not False
        self._kick = asyncio.Event()
        await self._resync()
        self.focused = self._current_session() if self.app_active else None
        log.info("watching iTerm2: %d session(s)", len(self.sessions))
        await _first(
            self._watch_layout(),
            self._watch_new_sessions(),
            self._watch_terminations(),
            self._resyncer(),
            self._watch_focus(),
            self._connection_closed(),
            self._stop.wait(),
        )

    async def _lost(self):
        watchers = list(self.watchers.values())
        self.watchers.clear()
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        had = bool(self.sessions)
        self.sessions, self.screens, self.variables, self.columns = {}, {}, {}, {}
        self.app = None
        self.focused = None
        if had:
            self.send(self._sessions_message())  # the bridge no longer sees them: the daemon shows them closed

    async def _connection_closed(self):
        websocket = getattr(self.connection, "websocket", None)
        wait_closed = getattr(websocket, "wait_closed", None)
        if wait_closed is not None:
            await wait_closed()
            return
        while True:
            await asyncio.sleep(LIVENESS_S)
            await self.app.async_refresh_focus()  # raises once iTerm2 is gone

    # ---- sessions and layout ------------------------------------------------------------------------------

    async def _watch_layout(self):
        async with self.it.LayoutChangeMonitor(self.connection) as mon:
            while True:
                await mon.async_get()
                self._kick.set()

    async def _watch_new_sessions(self):
        async with self.it.NewSessionMonitor(self.connection) as mon:
            while True:
                await mon.async_get()
                self._kick.set()

    async def _watch_terminations(self):
        async with self.it.SessionTerminationMonitor(self.connection) as mon:
            while True:
                await mon.async_get()
                self._kick.set()

    async def _resyncer(self):
        """One re-read of the layout per burst of changes (a window closing ends several sessions at once)."""
        while True:
            await self._kick.wait()
            self._kick.clear()
            await self._resync()

    async def _resync(self):
        refresh = getattr(self.app, "async_refresh", None)
        if refresh is not None:
            await refresh()
        found = {}
        for window in self.app.terminal_windows:
            for tab in window.tabs:
                # tab.sessions leaves out the panes hidden while another is maximised (tab.py): still running.
                for session in getattr(tab, "all_sessions", tab.sessions):
                    found[session.session_id] = session
        for sid in list(self.watchers):
            if sid not in found:
                self.watchers.pop(sid).cancel()  # it ends at its next await; nothing waits for it
                for state in (self.screens, self.variables, self.columns):
                    state.pop(sid, None)
        entries = {}
        for sid, session in found.items():
            size = getattr(session, "grid_size", None)
            entry = {
                "session": sid,
                "name": cut(session.name or "iTerm2", MAX_NAME),
                "cols": min(max(size.width, 1), MAX_ROWS) if size else DEFAULT_COLS,
                "rows": min(max(size.height, 1), MAX_ROWS) if size else DEFAULT_ROWS,
            }
            previous = self.sessions.get(sid)
            command = previous.get("command") if previous else await self._get_variable(session, "commandLine")
            if isinstance(command, str) and command:
                entry["command"] = cut(command, MAX_VARIABLE_CHARS)
            entries[sid] = entry
        changed = entries != self.sessions
        self.sessions = entries
        if changed:
            self.send(self._sessions_message())
        # Watch new sessions only now: the daemon opens their panes (above) before their screens arrive.
        for sid, session in found.items():
            if sid not in self.watchers:
                self.watchers[sid] = asyncio.ensure_future(self._watch_session(session))

    async def _get_variable(self, session, name):
        try:
            return await session.async_get_variable(name)
        except Exception as e:  # a session ending as we ask
            log.debug("variable %s of %s: %s", name, session.session_id, e)
            return None

    # ---- one session --------------------------------------------------------------------------------------

    async def _watch_session(self, session):
        sid = session.session_id
        watches = [
            ("screen", self._watch_screen(session)),
            ("prompts", self._watch_prompts(sid)),
            ("keys", self._watch_keys(sid)),
            ("columns", self._watch_variable(session, "columns", self._on_columns)),
        ]
        watches += [(name, self._watch_variable(session, name, self._on_variable)) for name in VARIABLES]
        results = await asyncio.gather(*(w for _, w in watches), return_exceptions=True)
        for (what, _), r in zip(watches, results):
            if isinstance(r, Exception):  # the session ended, or this iTerm2 cannot do it: the others go on
                log.info("session %s: %s watch ended: %s", sid, what, r or type(r).__name__)

    async def _watch_screen(self, session):
        async with session.get_screen_streamer(want_contents=True) as streamer:
            self._on_screen(session.session_id, await session.async_get_screen_contents())
            changing = False
            while True:
                try:
                    # While changes come, wait for the next one at most SCREEN_SETTLE_S; once quiet, without limit.
                    contents = await (ws_client.within(streamer.async_get(), SCREEN_SETTLE_S) if changing else streamer.async_get())
                    changing = True
                except asyncio.TimeoutError:
                    contents = await session.async_get_screen_contents()  # the settled screen (usually the same)
                    changing = False
                if contents is not None:
                    self._on_screen(session.session_id, contents)

    def _on_screen(self, sid, contents):
        n = min(contents.number_of_lines, MAX_ROWS)
        if n < 1 or sid not in self.sessions:
            return
        rows = [cut(contents.line(i).string or "", MAX_ROW_CHARS) for i in range(n)]
        cols = self.columns.get(sid) or self.sessions[sid]["cols"]
        message = {"type": "screen", "session": sid, "rows": rows, "cursor": self._cursor(contents, n, cols), "cols": cols}
        if self.screens.get(sid) == message:
            return
        self.screens[sid] = message
        self.send(message)

    @staticmethod
    def _cursor(contents, n, cols):
        """The cursor on the screen (0-based). iTerm2 numbers lines from the start of history, so the screen's
        first line is subtracted; a cursor that is then off the screen is taken as already screen-relative."""
        c = contents.cursor_coord
        try:
            first = contents.windowed_coord_range.coordRange.start.y
        except AttributeError:
            first = getattr(contents, "number_of_lines_above_screen", 0) or 0
        y = c.y - first
        if not 0 <= y < n:
            y = c.y
        return {"x": max(0, min(c.x, cols - 1, MAX_ROWS - 1)), "y": max(0, min(y, n - 1))}

    async def _watch_prompts(self, sid):
        monitor = self.it.PromptMonitor
        mode = monitor.Mode
        try:
            mon = monitor(self.connection, sid, modes=[mode.PROMPT, mode.COMMAND_START, mode.COMMAND_END])
        except Exception as e:  # AppVersionTooOld: this iTerm2 reports prompts only, not command start/end
            log.info("iTerm2 reports prompts only (%s); upgrade iTerm2 for command start/end", e)
            mon = monitor(self.connection, sid)
        async with mon:
            while True:
                got = await mon.async_get()
                kind, value = got if isinstance(got, tuple) else (mode.PROMPT, None)
                message = {"type": "prompt", "session": sid}
                if kind == mode.COMMAND_START:
                    message.update(event="command_start", command=cut(value, MAX_VARIABLE_CHARS) if isinstance(value, str) else None)
                elif kind == mode.COMMAND_END:
                    ok = isinstance(value, int) and not isinstance(value, bool)
                    message.update(event="command_end", status=value if ok else None)
                else:
                    message.update(event="prompt")
                self.send(message)

    async def _watch_keys(self, sid):
        async with self.it.KeystrokeMonitor(self.connection, sid) as mon:
            while True:
                key = classify_key(self.it, await mon.async_get())
                if key:
                    self.send({"type": "key", "session": sid, "key": key})

    async def _watch_variable(self, session, name, on_value):
        sid = session.session_id
        scope = self.it.VariableScopes.SESSION
        async with self.it.VariableMonitor(self.connection, scope, name, sid) as mon:
            # Subscribed first, then read: a change in between is not lost.
            on_value(sid, name, await session.async_get_variable(name))
            while True:
                on_value(sid, name, await mon.async_get())

    def _on_variable(self, sid, name, raw):
        value = normalize(name, raw)
        known = self.variables.setdefault(sid, {})
        if name in known and known[name] == value:
            return
        known[name] = value
        self.send({"type": "variable", "session": sid, "name": name, "value": value})

    def _on_columns(self, sid, _name, raw):
        if isinstance(raw, (int, float)) and not isinstance(raw, bool) and 1 <= raw <= MAX_ROWS:
            self.columns[sid] = int(raw)

    # ---- focus: the person looked at a session ------------------------------------------------------------

    async def _watch_focus(self):
        async with self.it.FocusMonitor(self.connection) as mon:
            while True:
                update = await mon.async_get_next_update()
                try:
                    self._on_focus(update)
                except Exception as e:  # noqa: BLE001  (one odd update must not end the watch)
                    log.warning("focus update %r not understood: %s", update, e)

    def _on_focus(self, update):
        if update.application_active is not None:
            self.app_active = bool(update.application_active.application_active)
            sid = self._current_session()
        elif update.window_changed is not None:
            # Resigning is followed by another window becoming key, or by the app going inactive.
            if not _became_key(update.window_changed.event):
                return
            sid = _tab_session(_window_tab(self.app.get_window_by_id(update.window_changed.window_id)))
        elif update.selected_tab_changed is not None:
            sid = _tab_session(self.app.get_tab_by_id(update.selected_tab_changed.tab_id))
        elif update.active_session_changed is not None:
            sid = update.active_session_changed.session_id
        else:
            return
        if not self.app_active:
            sid = None
        if sid == self.focused:
            return
        self.focused = sid
        if sid in self.sessions:
            self.send({"type": "focus", "session": sid})

    def _current_session(self):
        return _tab_session(_window_tab(self.app.current_terminal_window))

    # ---- from the daemon ----------------------------------------------------------------------------------

    async def send_text(self, sid, text):
        """Types text into a session as if the person had (the daemon's send_text, for supervised runs)."""
        session = self.app.get_session_by_id(sid) if self.app is not None else None
        if session is None:
            raise LookupError(f"no iTerm2 session {sid}")
        # Only this session, even when the person broadcasts input to several.
        await session.async_send_text(text, suppress_broadcast=True)


    async def activate(self, sid):
        """Shows a session to the person (the daemon's activate, a jump): its tab selected, its window in front,
        and iTerm2 made the active app (a window brought forward does not activate the app by itself)."""
        session = self.app.get_session_by_id(sid) if self.app is not None else None
        if session is None:
            raise LookupError(f"no iTerm2 session {sid}")
        await session.async_activate(select_tab=True, order_window_front=True)
        await self.app.async_activate(raise_all_windows=False, ignoring_other_apps=True)


def _became_key(event):
    """A window became key. The library gives a FocusUpdateWindowChanged.Reason member (focus.py); its value is the
    protocol's WindowStatus (api.proto: TERMINAL_WINDOW_BECAME_KEY = 0)."""
    return getattr(event, "name", None) == "TERMINAL_WINDOW_BECAME_KEY" or (isinstance(event, int) and event == 0)


def _window_tab(window):
    return window.current_tab if window is not None else None


def _tab_session(tab):
    session = tab.current_session if tab is not None else None
    return session.session_id if session is not None else None


async def _first(*coros):
    """Runs the coroutines until the first one ends; cancels the rest; raises what it raised."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for t in done:
            t.result()
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
