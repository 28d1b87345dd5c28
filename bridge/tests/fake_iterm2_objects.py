"""The fake `iterm2` module's classes (see fake_iterm2.py): Connection, App, Window, Tab, Session, the monitors.
`build(module)` makes them for one module instance (one "process"), closing over its pretend iTerm2 and its
process-wide handler table.
"""
import asyncio
import enum
import os
import types


def build(it):  # noqa: C901  (one closure per class keeps every class bound to this module instance)
    iterm = it.iterm
    handlers = it.notifications._get_handlers()
    SubscriptionException = it.notifications.SubscriptionException

    class Connection:
        """One websocket to iTerm2. `closed` is set when iTerm2 quits (or the socket is closed)."""

        def __init__(self):
            self.closed = asyncio.Event()
            self.loop = asyncio.get_running_loop()
            self.websocket = types.SimpleNamespace(wait_closed=self.closed.wait, close=self._close)

        async def _close(self):
            self.closed.set()
            iterm.subscriptions = [s for s in iterm.subscriptions if s[0] is not self]

        @staticmethod
        async def async_create():
            """connection.py: ask for a cookie first (auth.py `authenticate`: only when none is set; AppleScript,
            which needs macOS: Popen('/usr/bin/osascript') raises FileNotFoundError elsewhere); on a 401 with a
            stale cookie, remove it and ask once more; a 401 with a fresh one is raised. Connects on the
            running loop, whatever the version."""
            fresh = _authenticate(force=False)
            connection = Connection()
            while True:
                try:
                    iterm.accept(connection, os.environ.get("ITERM2_COOKIE"))
                    return connection
                except PermissionError:
                    if fresh:
                        raise
                    fresh = _authenticate(force=True)
                    if not fresh:
                        raise

        async def call(self):
            """One RPC's round trip; on a closed socket the send raises (websockets ConnectionClosed)."""
            if self.closed.is_set():
                raise ConnectionError("websocket closed: iTerm2 went away")
            await asyncio.sleep(0)

        def notify(self, kind, key, item):
            """connection.py `_async_dispatch_forever`: each notification in a task of its own, on this
            connection's loop; notifications.py `_async_dispatch_helper`: the handlers for its key, else the
            all-sessions key, awaited in order, and the first that raises stops the rest."""
            async def dispatch():
                for callback in list(handlers.get((kind, key)) or handlers.get((kind, None)) or []):
                    try:
                        await callback(self, item)
                    except Exception as e:  # noqa: BLE001
                        iterm.dispatch_errors.append(e)
                        return
            self.loop.create_task(dispatch())

    def _authenticate(force):
        if force:
            for var in ("ITERM2_COOKIE", "ITERM2_KEY"):
                os.environ.pop(var, None)
        if iterm.cookies is None:
            return True  # auth.py: applescript_auth_disabled()
        if os.environ.get("ITERM2_COOKIE"):
            return False
        if not iterm.applescript:
            raise FileNotFoundError("[Errno 2] No such file or directory: '/usr/bin/osascript'")
        if not iterm.running:
            return False  # auth.py raises AuthenticationException("iTerm2 not running"); authenticate() says False
        os.environ["ITERM2_COOKIE"], os.environ["ITERM2_KEY"] = iterm.issue_cookie(), "key"
        return True

    async def subscribe(connection, kind, key, callback):
        """notifications.py `_async_subscribe`: the callback goes in the process-wide table first, then the
        request goes to iTerm2."""
        handlers.setdefault((kind, key), []).append(callback)
        await connection.call()
        iterm.subscribe(connection, kind, key)  # a second one for the key is ALREADY_SUBSCRIBED: accepted
        return ((kind, key), callback)

    async def unsubscribe(connection, token):
        """notifications.py `async_unsubscribe`: out of the table first; iTerm2 is told only when the key's last
        callback goes (and that send raises on a closed socket)."""
        key, callback = token
        callbacks = handlers[key]
        callbacks.remove(callback)
        if not callbacks:
            del handlers[key]
            await connection.call()
            iterm.unsubscribe(connection, *key)

    class Monitor:
        """An async context manager subscribed while inside `async with`; __aexit__ swallows only
        SubscriptionException (lifecycle.py, keyboard.py, ...)."""

        kind = "?"

        def __init__(self, connection, key=None):
            self.connection = connection
            self.key = key
            self.queue = asyncio.Queue()

        async def _on(self, _connection, item):
            await self.queue.put(item)

        async def __aenter__(self):
            self.token = await subscribe(self.connection, self.kind, self.key, self._on)
            iterm.watching.append((self.connection, self.kind, self.key))
            return self

        async def __aexit__(self, *exc):
            iterm.watching.remove((self.connection, self.kind, self.key))
            try:
                await unsubscribe(self.connection, self.token)
            except SubscriptionException:
                pass

        async def async_get(self):
            return await self.queue.get()

    class LayoutChangeMonitor(Monitor):
        kind = "layout"

    class NewSessionMonitor(Monitor):
        kind = "new_session"

        async def async_get(self):
            return (await self.queue.get()).session_id

    class SessionTerminationMonitor(NewSessionMonitor):
        kind = "terminate"

    class KeystrokeMonitor(Monitor):
        kind = "keys"

    class VariableMonitor(Monitor):
        kind = "variable"

        def __init__(self, connection, scope, name, identifier):
            super().__init__(connection, (identifier, name))

    class PromptMonitor(Monitor):
        """prompt.py: modes other than PROMPT raise AppVersionTooOld on an old iTerm2 (protocol < 1.1), whose
        events are then always (PROMPT, None). Mode values are api.proto's PromptMonitorMode: 1, 2, 3."""

        kind = "prompt"

        class Mode(enum.Enum):
            PROMPT = 1
            COMMAND_START = 2
            COMMAND_END = 3

        def __init__(self, connection, session_id, modes=None):
            modes = list(modes) if modes is not None else [PromptMonitor.Mode.PROMPT]
            if modes != [PromptMonitor.Mode.PROMPT] and not iterm.prompt_modes_supported:
                raise it.capabilities.AppVersionTooOld("only PROMPT")
            super().__init__(connection, session_id)

        async def async_get(self):
            mode, value = await self.queue.get()
            return (mode, value) if iterm.prompt_modes_supported else (PromptMonitor.Mode.PROMPT, None)

    class FocusMonitor(Monitor):
        """focus.py: notifications are queued in a list; async_get_next_update turns one into a FocusUpdate."""

        kind = "focus"

        def __init__(self, connection):
            super().__init__(connection)

        async def async_get_next_update(self):
            from fake_iterm2 import focus_update  # noqa: E402

            return focus_update(await self.queue.get())

    class ScreenStreamer(Monitor):
        """screen.py: a notification is kept only if someone is awaiting async_get at that moment (its future);
        one arriving while async_get fetches the contents (an RPC) is dropped. async_get fetches the screen as
        it is when the fetch is answered."""

        kind = "screen"

        def __init__(self, connection, session_id, want_contents=True):
            super().__init__(connection, session_id)
            self.want_contents = want_contents
            self.future = None

        async def _on(self, _connection, _item):
            future, self.future = self.future, None
            if future is not None and not future.done():
                future.set_result(True)
            else:
                iterm.dropped_screen_updates += 1

        async def async_get(self):
            self.future = asyncio.get_running_loop().create_future()
            await self.future
            if not self.want_contents:
                return None
            await self.connection.call()
            contents = iterm.session(self.key).contents
            if iterm.during_fetch:  # the test changes the screen while this fetch is in flight
                iterm.during_fetch.pop(0)()
            return contents

    class Session:
        """session.py: built from iTerm2's session summary; its RPCs go over the App's connection."""

        def __init__(self, app, state):
            self.app, self.state = app, state
            self.session_id = state.session_id
            self.name = state.name
            self.grid_size = types.SimpleNamespace(width=state.cols, height=state.rows)

        async def async_get_variable(self, name):
            await self.app.connection.call()
            return self.state.variables.get(name)

        async def async_get_screen_contents(self):
            await self.app.connection.call()
            return self.state.contents

        def get_screen_streamer(self, want_contents=True):
            return ScreenStreamer(self.app.connection, self.session_id, want_contents)

        async def async_send_text(self, text, suppress_broadcast=False):
            await self.app.connection.call()
            self.state.sent_text.append((text, suppress_broadcast))
            if self.state.on_text is not None:
                self.state.on_text(text, suppress_broadcast)

        async def async_activate(self, select_tab=True, order_window_front=True):
            await self.app.connection.call()
            self.state.activated.append({"select_tab": select_tab, "order_window_front": order_window_front})

    class Tab:
        """tab.py: `sessions` leaves out minimised panes (`all_sessions` has them); `current_session` is None until
        the App knows the tab's active session (focus info)."""

        def __init__(self, app, state):
            self.app, self.state = app, state
            self.tab_id = state.tab_id

        @property
        def sessions(self):
            return [self.app.session_object(s) for s in self.state.sessions]

        @property
        def all_sessions(self):
            return [self.app.session_object(s) for s in self.state.sessions + self.state.minimized]

        @property
        def current_session(self):
            active = self.app.active_session_ids.get(self.tab_id)
            return next((s for s in self.sessions if s.session_id == active), None)

    class Window:
        """window.py: `current_tab` is None until the App knows the window's selected tab (focus info)."""

        def __init__(self, app, state):
            self.app, self.state = app, state
            self.window_id = state.window_id

        @property
        def tabs(self):
            return [Tab(self.app, t) for t in self.state.tabs]

        @property
        def current_tab(self):
            selected = self.app.selected_tab_ids.get(self.window_id)
            return next((t for t in self.tabs if t.tab_id == selected), None)

    class App:
        """app.py. Builds itself from iTerm2's lists, then subscribes five handlers that keep it current (new
        session, termination, layout, focus, broadcast domains) on ITS connection, never unsubscribed; then asks
        for the focus info. Until that info arrives app_active and the current window are None (unknown)."""

        instance = None

        def __init__(self, connection):
            self.connection = connection
            self.app_active = None
            self.current_terminal_window_id = None
            self.selected_tab_ids, self.active_session_ids = {}, {}
            self._sessions = {}
            self._refreshing = False

        @staticmethod
        async def async_construct(connection):
            await connection.call()
            app = App(connection)
            for kind, callback in [("new_session", app.async_refresh), ("terminate", app.async_refresh),
                                   ("layout", app.async_refresh), ("focus", app._focus_change), ("broadcast", app._noop)]:
                await subscribe(connection, kind, None, callback)
            await app.async_refresh_focus()
            return app

        async def _noop(self, *_):
            pass

        def session_object(self, state):
            if state.session_id not in self._sessions:
                self._sessions[state.session_id] = Session(self, state)
            return self._sessions[state.session_id]

        async def async_refresh(self, _connection=None, _item=None):
            if self._refreshing:  # app.py: focus info naming a tab the layout lacks would recurse for ever
                return
            self._refreshing = True
            try:
                await self.connection.call()
                iterm.refreshes += 1
                await self.async_refresh_focus()
            finally:
                self._refreshing = False

        async def async_refresh_focus(self):
            await self.connection.call()
            for info in iterm.focus_info():
                await self._focus_change(self.connection, info)

        async def _focus_change(self, _connection, info):
            if info.application_active is not None:
                self.app_active = info.application_active
            elif info.window is not None:
                if info.window[1] != 2:  # TERMINAL_WINDOW_RESIGNED_KEY is ignored
                    self.current_terminal_window_id = info.window[0]
            elif info.selected_tab is not None:
                window = next((w for w in iterm.windows for t in w.tabs if t.tab_id == info.selected_tab), None)
                if window is None:
                    await self.async_refresh()
                else:
                    self.selected_tab_ids[window.window_id] = info.selected_tab
                    window.selected_tab_id = info.selected_tab
            elif info.session is not None:
                tab = next((t for w in iterm.windows for t in w.tabs if info.session in [s.session_id for s in t.sessions]), None)
                if tab is None:
                    await self.async_refresh()
                else:
                    self.active_session_ids[tab.tab_id] = info.session
                    tab.active_session_id = info.session

        @property
        def terminal_windows(self):
            return [Window(self, w) for w in iterm.windows]

        @property
        def current_terminal_window(self):
            return self.get_window_by_id(self.current_terminal_window_id)

        async def async_activate(self, raise_all_windows=True, ignoring_other_apps=False):
            await self.connection.call()
            iterm.activations.append({"raise_all_windows": raise_all_windows, "ignoring_other_apps": ignoring_other_apps})

        def get_window_by_id(self, window_id):
            return next((w for w in self.terminal_windows if w.window_id == window_id), None)

        def get_tab_by_id(self, tab_id):
            return next((t for w in self.terminal_windows for t in w.tabs if t.tab_id == tab_id), None)

        def get_session_by_id(self, session_id):
            return next((s for w in self.terminal_windows for t in w.tabs for s in t.all_sessions if s.session_id == session_id), None)

    for cls in (Connection, App, LayoutChangeMonitor, NewSessionMonitor, SessionTerminationMonitor, KeystrokeMonitor,
                VariableMonitor, PromptMonitor, FocusMonitor, ScreenStreamer):
        setattr(it, cls.__name__, cls)
