// pytest: a passing run (`=== 3 passed in 0.01s ===`), then a failing one (`=== 2 failed, 1 passed in ... ===`).
export default {
  name: 'shell-fail-pytest',
  scenario: 'bash without shell integration: `pytest -q test_ok.py` (3 passed), then `pytest test_calc.py` (2 failed, 1 passed, exit 1)',
  env: { PYTHONDONTWRITEBYTECODE: '1', PYTEST_ADDOPTS: '-p no:cacheprovider' },
  setup: [
    `printf 'def test_a():\\n    assert 1 + 1 == 2\\n\\ndef test_b():\\n    assert "ab".upper() == "AB"\\n\\ndef test_c():\\n    assert [1, 2][::-1] == [2, 1]\\n' > test_ok.py`,
    `printf 'def test_add():\\n    assert 1 + 1 == 2\\n\\ndef test_sub():\\n    assert 3 - 1 == 1\\n\\ndef test_div():\\n    assert 1 / 0 == 0\\n' > test_calc.py`,
  ],
  steps: [
    { wait: 2 },
    { type: 'pytest test_ok.py', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'pytest test_calc.py', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
