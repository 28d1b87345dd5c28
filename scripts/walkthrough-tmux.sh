#!/bin/bash
# A README walkthrough (issue 26): a daemon on a private tmux server watching a shell, two fake agents, a Python REPL
# and a pager; the person gives each something to do, then what `status` and the API say needs them. Prints only.
# Run from a checkout after `make build`: scripts/walkthrough-tmux.sh
set -u
W=/tmp/walk; rm -rf $W; mkdir -p $W/{cfg,state,run,data}
export XDG_CONFIG_HOME=$W/cfg XDG_STATE_HOME=$W/state XDG_RUNTIME_DIR=$W/run XDG_DATA_HOME=$W/data
cd "$(dirname "$0")/.."
T="tmux -L walk -f /dev/null"
$T kill-server 2>/dev/null
$T new-session -d -s work -x 120 -y 30 -n shell bash --norc
$T new-window -t work -n agent1 "python3 tests/helpers/fake-agent.py --work 3 --approve-on 2"
$T new-window -t work -n agent2 "python3 tests/helpers/fake-agent.py --work 2"
$T new-window -t work -n repl "bash --norc"
$T new-window -t work -n pager "bash --norc"
bin/termsupervisor daemon --port 0 --tmux-socket walk > $W/daemon.out 2>&1 &
echo $! > $W/daemon.pid
sleep 4
URL=$(python3 -c "import json;print(json.load(open('$W/run/termsupervisor/daemon.json'))['url'])" 2>/dev/null)
echo "daemon at $URL"
sleep 2
st() { bin/termsupervisor status --no-color 2>&1 | sed 's/^/  /'; }
echo "== at start (nothing asked yet)"; st
# the person works: a command in the shell, prompts to both agents, a REPL, a pager
$T send-keys -t work:shell 'sleep 3; echo built' Enter
$T send-keys -t work:agent1 'add a test' Enter
$T send-keys -t work:agent2 'explain the code' Enter
$T send-keys -t work:repl 'python3' Enter
$T send-keys -t work:pager 'seq 1 500 | less' Enter
sleep 9
echo "== after the turns ended (agent1's first turn, agent2's, the shell's command; python and less started)"; st
$T send-keys -t work:agent1 'now refactor' Enter
sleep 4
echo "== agent1 asks (its 2nd prompt asks y/n)"; st
echo "== needs-you only:"; bin/termsupervisor status --needs-you --no-color 2>&1 | sed 's/^/  /'
curl -s $URL/api/panes -H "Authorization: Bearer $(cat $W/cfg/termsupervisor/token)" | python3 -c "
import json,sys
ps=json.load(sys.stdin)
alive=[p for p in ps if p['alive']]
print('  panes alive:',len(alive),' names:',sorted(p['name'] for p in alive))
print('  needs you:',sorted((p['name'],p['state']) for p in alive if p.get('needsYou')))
"
TOK=$(cat $W/cfg/termsupervisor/token)
for n in repl shell; do
ID=$(curl -s $URL/api/panes -H "Authorization: Bearer $TOK" | python3 -c "import json,sys;print([p['id'] for p in json.load(sys.stdin) if p['name']=='work:$n'][0])")
echo "== $n transitions"; curl -s "$URL/api/panes/$(python3 -c "import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1],safe=''))" "$ID")/transitions" -H "Authorization: Bearer $TOK" > $W/tr.json; python3 -c "
import json
d=json.load(open('$W/tr.json'))
d=d if isinstance(d,list) else d.get('transitions',d)
for t in reversed(d): print(' ',t['from'],'->',t['to'],t['tier'],t['rule'],repr(t['line'])[:60])"
done
kill $(cat $W/daemon.pid); $T kill-server
