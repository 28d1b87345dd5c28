"""Where the daemon is and the token it wants: the same rules as the daemon's own files.

Mirrors src/config/paths.ts (XDG config and state dirs), src/daemon/token.ts (the token file) and
src/daemon/runtime-file.ts (the runtime file a running daemon writes, recognised as stale by its dead pid).
"""
import json
import os
import re

APP = "termsupervisor"
#: The daemon's token shape (src/daemon/token.ts): a file holding anything else is not one of ours.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")
#: The bridge's endpoint on the daemon.
LINK_PATH = "/bridge/iterm2"


def _home(env):
    return env.get("HOME") or os.path.expanduser("~")


def config_dir(env):
    return os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(_home(env), ".config"), APP)


def state_dir(env):
    return os.path.join(env.get("XDG_STATE_HOME") or os.path.join(_home(env), ".local", "state"), APP)


def token_path(env):
    return os.path.join(config_dir(env), "token")


def runtime_file_path(env):
    runtime = env.get("XDG_RUNTIME_DIR")
    return os.path.join(os.path.join(runtime, APP) if runtime else state_dir(env), "daemon.json")


def read_token(path):
    """The token, or None when there is none yet (the daemon creates it on first start)."""
    try:
        with open(path, encoding="utf-8") as f:
            token = f.read().strip()
    except OSError:
        return None
    return token if TOKEN_SHAPE.match(token) else None


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except PermissionError:
        return True
    except OSError:
        return False


def read_runtime_file(path):
    """The running daemon's {url, pid, ...}, or None (no file, unreadable, or its process is gone)."""
    try:
        with open(path, encoding="utf-8") as f:
            info = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or not isinstance(info.get("url"), str) or not isinstance(info.get("pid"), int):
        return None
    return info if _alive(info["pid"]) else None


def find_daemon(flag=None, env=None):
    """(ws URL of the bridge endpoint, token) or None: --daemon, then $TERMSUPERVISOR_DAEMON, then the runtime file.

    Looked up again before every connection attempt, so a daemon restarted on another port is found.
    """
    env = os.environ if env is None else env
    token = read_token(token_path(env))
    url = flag or env.get("TERMSUPERVISOR_DAEMON")
    if not url:
        info = read_runtime_file(runtime_file_path(env))
        url = info["url"] if info else None
    if not url:
        return None
    return link_url(url), token


def link_url(url):
    """http://127.0.0.1:7878 → ws://127.0.0.1:7878/bridge/iterm2."""
    base = url.rstrip("/")
    if base.startswith("http"):
        base = "ws" + base[len("http"):]
    return base + LINK_PATH
