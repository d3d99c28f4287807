"""Runs this extension through `reasonix-host check` (handshake, declared capabilities, shutdown)
and calls its tool the way an agent would, with `reasonix-host tool`. REASONIX_HOST names the
host's CLI: a `reasonix-host` on PATH by default, or the path of its cli.js (run with `node`).

    python3 -m unittest discover -s tests
"""
import json
import os
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "{{name}}"


def host(*args):
    cli = os.environ.get("REASONIX_HOST", "reasonix-host")
    argv = ["node", cli, *args] if cli.endswith(".js") else [cli, *args]
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except FileNotFoundError as err:
        raise AssertionError(f"could not run {cli} (set REASONIX_HOST to reasonix-host or its cli.js): {err}")


class CheckTest(unittest.TestCase):
    def test_conforms(self):
        run = host("check", ROOT, "--json")
        report = json.loads(run.stdout)
        self.assertTrue(report["ok"], f"check failed: {run.stdout}{run.stderr}")
        self.assertEqual(run.returncode, 0)

    def test_greet_tool(self):
        run = host("tool", NAME, "greet", "--args", json.dumps({"name": "Ada"}), "--plugin", ROOT, "--json")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("Hello, Ada!", run.stdout)


if __name__ == "__main__":
    unittest.main()
