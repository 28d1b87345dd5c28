"""Finding the daemon and its token: the same paths and precedence as the daemon's own TypeScript."""
import json
import os
import tempfile
import unittest

import support  # noqa: F401
import daemon_target as dt

TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789_-AB"


class Paths(unittest.TestCase):
    def test_token_under_xdg_config_home_else_home_config(self):
        self.assertEqual(dt.token_path({"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"}), "/x/cfg/termsupervisor/token")
        self.assertEqual(dt.token_path({"HOME": "/h"}), "/h/.config/termsupervisor/token")
        self.assertEqual(dt.token_path({"XDG_CONFIG_HOME": "", "HOME": "/h"}), "/h/.config/termsupervisor/token")

    def test_runtime_file_under_xdg_runtime_dir_else_the_state_dir(self):
        self.assertEqual(dt.runtime_file_path({"XDG_RUNTIME_DIR": "/run/u", "HOME": "/h"}), "/run/u/termsupervisor/daemon.json")
        self.assertEqual(dt.runtime_file_path({"XDG_STATE_HOME": "/s", "HOME": "/h"}), "/s/termsupervisor/daemon.json")
        self.assertEqual(dt.runtime_file_path({"HOME": "/h"}), "/h/.local/state/termsupervisor/daemon.json")

    def test_link_url(self):
        self.assertEqual(dt.link_url("http://127.0.0.1:7878"), "ws://127.0.0.1:7878/bridge/iterm2")
        self.assertEqual(dt.link_url("https://h:1/"), "wss://h:1/bridge/iterm2")


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.env = {"HOME": self.dir.name, "XDG_RUNTIME_DIR": os.path.join(self.dir.name, "run")}

    def tearDown(self):
        self.dir.cleanup()

    def write(self, path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def test_token_is_read_only_when_it_has_the_daemons_shape(self):
        path = dt.token_path(self.env)
        self.assertIsNone(dt.read_token(path))
        self.write(path, "not a token\n")
        self.assertIsNone(dt.read_token(path))
        self.write(path, TOKEN + "\n")
        self.assertEqual(dt.read_token(path), TOKEN)

    def test_runtime_file_of_a_dead_daemon_is_ignored(self):
        path = dt.runtime_file_path(self.env)
        self.write(path, json.dumps({"url": "http://127.0.0.1:1", "pid": os.getpid(), "startedAt": 0, "version": "x"}))
        self.assertEqual(dt.read_runtime_file(path)["url"], "http://127.0.0.1:1")
        self.write(path, json.dumps({"url": "http://127.0.0.1:1", "pid": 2 ** 22 + 12345}))
        self.assertIsNone(dt.read_runtime_file(path))
        self.write(path, "{")
        self.assertIsNone(dt.read_runtime_file(path))

    def test_flag_then_environment_then_runtime_file(self):
        self.write(dt.token_path(self.env), TOKEN)
        self.assertIsNone(dt.find_daemon(None, self.env))
        self.write(dt.runtime_file_path(self.env), json.dumps({"url": "http://127.0.0.1:3", "pid": os.getpid()}))
        self.assertEqual(dt.find_daemon(None, self.env), ("ws://127.0.0.1:3/bridge/iterm2", TOKEN))
        env = {**self.env, "TERMSUPERVISOR_DAEMON": "http://127.0.0.1:2"}
        self.assertEqual(dt.find_daemon(None, env), ("ws://127.0.0.1:2/bridge/iterm2", TOKEN))
        self.assertEqual(dt.find_daemon("http://127.0.0.1:1", env), ("ws://127.0.0.1:1/bridge/iterm2", TOKEN))


if __name__ == "__main__":
    unittest.main()
