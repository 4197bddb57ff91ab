#!/usr/bin/env bash
# ptk flamegraph: folded and perf script input, XML validity and escaping, collapse without
# lost samples (fixtures and a real perf record, against perf report's count), differential
# colours, and the SVG in headless Chromium (screenshot not blank; search and zoom run).
# timing-sensitive: the Chromium checks send zoom, unzoom and Ctrl-F as input events, and the page does not say when it has handled one (a search once ran on the zoomed view)
. "$(dirname "$0")/lib.sh"

FP=$FIX/flame_perf

# 1. escaping: the title carries the escaped names and the document is well-formed XML
printf 'main;std::vector<int>::push_back;a&b;q"x 5\n' > "$TMP/esc.folded"
if "$PTK" flamegraph "$TMP/esc.folded" -o "$TMP/esc.svg"; then ok "flamegraph of an escaping-heavy stack"; else not_ok "flamegraph exit $?"; fi
if have xmllint; then
	check "xmllint --noout passes" xmllint --noout "$TMP/esc.svg"
else
	skip "xmllint not installed (apt-get install libxml2-utils)"
fi
check "title shows std::vector&lt;int&gt;::push_back" grep -q '<title>std::vector&lt;int&gt;::push_back (5 samples, 100.00%)</title>' "$TMP/esc.svg"
check "title shows a&amp;b and q&quot;x" grep -q '<title>a&amp;b (5 samples.*<title>q&quot;x (5 samples' <(tr -d '\n' < "$TMP/esc.svg")

# 2. perf script fixture: every header form, no sample dropped, same folded as expected
"$PTK" flamegraph --folded -v "$FP/perf.script" > "$TMP/fx.folded" 2> "$TMP/fx.err"
sed "s/^/# /" "$TMP/fx.err"
if diff -u "$FP/expected.folded" "$TMP/fx.folded" > "$TMP/fx.diff"; then
	ok "perf script fixture collapses to the expected folded stacks"
else
	not_ok "folded output differs"; sed 's/^/# /' "$TMP/fx.diff"
fi
sum=$(awk '{ s += $NF } END { print s }' "$TMP/fx.folded")
note "samples: 11 headers in the fixture (9 cycles, 2 instructions), weight $sum in the folded output"
check "the 9 cycles samples weigh their periods: 2*2654110 + 5*1000000 + 2*1 (got $sum)" [ "$sum" = 10308222 ]
check "-v reports 11 in, 9 out, 2 of another event, 2 srcline lines skipped" \
	grep -q '11 samples in, 9 out, 2 of other events, 2 lines skipped' "$TMP/fx.err"
check "the second event is named as left out, not silently merged" grep -q '2 events: kept the first, cycles; left out instructions 2 samples' "$TMP/fx.err"
"$PTK" flamegraph --folded --event-filter instructions "$FP/perf.script" > "$TMP/cy.folded" 2>/dev/null
cy=$(awk '{ s += $NF } END { print s }' "$TMP/cy.folded")
check "--event-filter instructions keeps the 2 samples of 1000000 (got $cy)" [ "$cy" = 2000000 ]
"$PTK" flamegraph "$FP/perf.script" -o "$TMP/fx.svg" 2>/dev/null
check "perf script input is auto-detected: the SVG root weighs 10,308,222" grep -q '<title>all (10,308,222 samples, 100.00%)</title>' "$TMP/fx.svg"
have xmllint && check "perf script SVG passes xmllint" xmllint --noout "$TMP/fx.svg"
"$PTK" flamegraph --tid --folded "$FP/perf.script" 2>/dev/null | grep -q '^java-4000/4001;' &&
	"$PTK" flamegraph --pid --folded "$FP/perf.script" 2>/dev/null | grep -q '^Plex_DLNA_Serve-?;' &&
	ok "--tid / --pid name comm-PID/TID and comm-? (stackcollapse-perf.pl)" || not_ok "--pid/--tid names"

# 3. differential: red grew, blue shrank, widths from B
printf 'm;grow 10\nm;shrink 30\n' > "$TMP/a.folded"
printf 'm;grow 30\nm;shrink 10\n' > "$TMP/b.folded"
"$PTK" flamegraph --diff "$TMP/a.folded" "$TMP/b.folded" -o "$TMP/diff.svg"
grow=$(tr -d '\n' < "$TMP/diff.svg" | grep -o '<title>grow ([^)]*)</title><rect[^>]*' | grep -o 'fill="[^"]*"')
shrink=$(tr -d '\n' < "$TMP/diff.svg" | grep -o '<title>shrink ([^)]*)</title><rect[^>]*' | grep -o 'fill="[^"]*"')
note "grow: $grow, shrink: $shrink"
check "diff: grown frame red, shrunk frame blue" [ "$grow" = 'fill="rgb(255,0,0)"' -a "$shrink" = 'fill="rgb(0,0,255)"' ]
check "diff tooltip: both counts and the delta" grep -q '<title>grow (30 samples, 75.00%; before 10, +20, self +20)</title>' "$TMP/diff.svg"

# 4. bad input
"$PTK" flamegraph --colors purple "$TMP/a.folded" > /dev/null 2>&1
check "unknown palette: usage error (exit 2)" [ $? = 2 ]
"$PTK" flamegraph "$TMP/nonexistent" > /dev/null 2>&1
check "missing input: exit 1" [ $? = 1 ]
printf 'no counts here\n' | "$PTK" flamegraph > /dev/null 2> "$TMP/empty.err"
rc=$?
check "input without stacks: exit 1 with a message (got $rc: $(cat "$TMP/empty.err"))" [ $rc = 1 ]

# 5. real data: perf record -g of a small C program; ptk's total = perf report's count
cat > "$TMP/burn.c" <<'EOF'
#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void leaf_a(void) { for (int i = 0; i < 2000; i++) sink += i * 7; }
__attribute__((noinline)) static void leaf_b(void) { for (int i = 0; i < 6000; i++) sink ^= i * 13; }
__attribute__((noinline)) static void mid(long k) { if (k & 1) leaf_a(); else leaf_b(); }
int main(void) { for (long n = 0; n < 150000; n++) mid(n); printf("%lu\n", sink); return 0; }
EOF
REAL=""
if ! have perf; then
	skip "perf not installed (linux-perf)"
elif ! cc -O1 -g -fno-omit-frame-pointer -o "$TMP/burn" "$TMP/burn.c"; then
	skip "no C compiler to build the profiled program"
elif ! timeout -k 5 120 perf record -q -F 999 -g -o "$TMP/perf.data" -- "$TMP/burn" > /dev/null 2> "$TMP/rec.err"; then
	skip "perf record failed: $(head -1 "$TMP/rec.err")"
else
	timeout -k 5 120 perf script -i "$TMP/perf.data" 2>/dev/null > "$TMP/real.script"
	"$PTK" flamegraph --no-period -v -o "$TMP/real.svg" < "$TMP/real.script" 2> "$TMP/real.err"
	sed "s/^/# /" "$TMP/real.err"
	ours=$(sed -n 's/.*<title>all (\([0-9,]*\) samples.*/\1/p' "$TMP/real.svg" | tr -d ,)
	theirs=$(timeout -k 5 120 perf report -i "$TMP/perf.data" --stdio -n --sort comm -g none 2>/dev/null |
		awk '!/^#/ && NF >= 4 { s += $3 } END { print s + 0 }')
	note "samples: ptk flamegraph $ours, perf report $theirs"
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ] && [ "$ours" -gt 0 ]; then
		ok "total samples equal perf report's ($ours)"
	else
		not_ok "total samples: ptk '$ours', perf report '$theirs'"
	fi
	have xmllint && check "real SVG passes xmllint" xmllint --noout "$TMP/real.svg"
	# by default each sample weighs its period: the total is the periods' sum
	wsum=$("$PTK" flamegraph --folded "$TMP/real.script" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }')
	psum=$(awk '/^[^ \t]/ && $NF ~ /:$/ && $(NF - 1) ~ /^[0-9]+$/ { s += $(NF - 1) } END { printf "%d\n", s }' "$TMP/real.script")
	note "period-weighted total: ptk $wsum, the periods in perf script's headers $psum"
	check "the weighted total equals the periods' sum ($wsum)" [ "$wsum" = "$psum" -a "$wsum" -gt "$ours" ]
	lb=$(sed -n 's/.*<title>leaf_b (\([0-9,]*\) samples.*/\1/p' "$TMP/real.svg" | tr -d , | head -1)
	note "leaf_b: $lb of $ours samples"
	if [ -n "$lb" ] && [ "$lb" -gt 0 ]; then ok "the hot leaf_b frame is drawn"; else not_ok "no leaf_b frame"; fi
	REAL=$TMP/real.svg
fi

# 6. the SVG in a browser: screenshot not blank; search and zoom from the URL fragment
CHROME=$(command -v chromium || command -v chromium-browser || true)
chrome() {
	local d; d=$(mktemp -d)
	timeout -k 5 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$d" "$@" 2>/dev/null
	rm -rf "$d"
}
if [ -z "$CHROME" ]; then
	skip "chromium not installed: SVG not rendered"
else
	SVG=${REAL:-$TMP/fx.svg}
	chrome --screenshot="$TMP/fg.png" --window-size=1200,800 "file://$SVG" > /dev/null
	px=$(python3 - "$TMP/fg.png" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
i, idat, w = 8, b'', 0
while i < len(d):
    n, t = struct.unpack('>I4s', d[i:i + 8])
    if t == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', d[i + 8:i + 18])
    if t == b'IDAT':
        idat += d[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(idat)
bpp = 4 if ctype == 6 else 3
stride = w * bpp
prev = bytearray(stride)
rows, pos = [], 0
for y in range(h):
    f = raw[pos]; line = bytearray(raw[pos + 1:pos + 1 + stride]); pos += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
# saturated "hot" frame pixels: red high, blue low (the background is grey/pale yellow)
hot = sum(1 for r in rows for x in range(0, stride, bpp) if r[x] > 190 and r[x + 2] < 120)
print(hot)
EOF
)
	note "screenshot $(stat -c %s "$TMP/fg.png" 2>/dev/null) bytes, $px flame-coloured pixels"
	check "Chromium renders the frames (flame-coloured pixels: $px)" [ "${px:-0}" -gt 5000 ]
	if [ -n "$REAL" ]; then
		chrome --dump-dom "file://$SVG#s=^leaf_b\$" > "$TMP/dom1.html"
		pct=$(awk -v a="$lb" -v t="$ours" 'BEGIN { printf "%.2f", 100 * a / t }')
		got=$(sed -n 's/.*id="matched"[^>]*>Matched: \([0-9.]*\)%.*/\1/p' "$TMP/dom1.html")
		note "search ^leaf_b\$: Matched $got%, expected $pct% ($lb of $ours samples)"
		if [ -n "$got" ] && near "$got" "$pct" 0.02; then
			ok "search shows the matched percentage"
		else
			not_ok "search: matched '$got', expected $pct"
		fi
		check "search highlights the match" grep -q '<title>leaf_b ([^)]*)</title><rect[^>]*fill="rgb(230,0,230)"' "$TMP/dom1.html"
		chrome --dump-dom "file://$SVG#z=leaf_b" > "$TMP/dom2.html"
		zw=$(tr -d '\n' < "$TMP/dom2.html" | grep -o '<title>leaf_b ([^)]*)</title><rect[^>]*' | grep -o 'width="[^"]*"')
		la=$(tr -d '\n' < "$TMP/dom2.html" | grep -o '<g class="hide"><title>leaf_a' | head -1)
		note "zoom leaf_b: $zw; leaf_a hidden: ${la:+yes}"
		check "zoom widens leaf_b to the full width and hides leaf_a" [ "$zw" = 'width="1180.00"' -a -n "$la" ]
		# real input events over the DevTools pipe: hover, click to zoom, Ctrl-F + prompt
		cat > "$TMP/drive.py" <<'PY'
# Drive a flame graph SVG in headless Chromium over --remote-debugging-pipe (CDP, no
# puppeteer): hover, click to zoom, Ctrl-F + prompt to search. Prints key=value lines.
import json, os, subprocess, sys, tempfile, time
chrome, svg, frame, regex = sys.argv[1:5]
r3, w3 = os.pipe()  # chrome reads commands on fd 3
r4, w4 = os.pipe()  # chrome writes replies on fd 4
prof = tempfile.mkdtemp()
def pre():
    a, b = os.dup(r3), os.dup(w4)
    os.dup2(a, 3); os.dup2(b, 4)
    os.set_inheritable(3, True); os.set_inheritable(4, True)
p = subprocess.Popen([chrome, '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
                      '--disable-component-update', '--disable-sync', '--no-first-run', '--user-data-dir=' + prof,
                      '--remote-debugging-pipe', '--window-size=1200,800', 'about:blank'],
                     preexec_fn=pre, close_fds=False,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(r3); os.close(w4)
buf, mid, events = b'', 0, []
def post(method, params=None, session=None):
    global mid
    mid += 1
    m = {'id': mid, 'method': method, 'params': params or {}}
    if session: m['sessionId'] = session
    os.write(w3, json.dumps(m).encode() + b'\0')
    return mid
def send(method, params=None, session=None):
    i = post(method, params, session)
    return wait(lambda x: x.get('id') == i)
def wait(pred, timeout=30):
    global buf
    end = time.time() + timeout
    for e in list(events):
        if pred(e): events.remove(e); return e
    while time.time() < end:
        while b'\0' in buf:
            line, buf = buf.split(b'\0', 1)
            x = json.loads(line)
            if pred(x): return x
            events.append(x)
        chunk = os.read(r4, 1 << 20)
        if not chunk: break
        buf += chunk
    raise SystemExit('timeout waiting for chrome')
try:
    t = send('Target.createTarget', {'url': 'about:blank'})['result']['targetId']
    s = send('Target.attachToTarget', {'targetId': t, 'flatten': True})['result']['sessionId']
    send('Page.enable', session=s)
    send('Page.navigate', {'url': 'file://' + svg}, session=s)
    wait(lambda x: x.get('method') == 'Page.loadEventFired')
    def js(expr):
        return send('Runtime.evaluate', {'expression': expr, 'returnByValue': True}, session=s)['result']['result'].get('value')
    def mouse(kind, x, y, clicks=0):
        send('Input.dispatchMouseEvent', {'type': kind, 'x': x, 'y': y, 'button': 'left' if clicks else 'none', 'clickCount': clicks}, session=s)
    find = ("(function(){var b=null;[].forEach.call(document.querySelectorAll('#frames > g'),function(g){"
            "if(g.querySelector('title').textContent.indexOf(%s+' (')==0){var r=g.querySelector('rect').getBoundingClientRect();"
            "if(!b||r.width>b.w)b={x:r.x+r.width/2,y:r.y+r.height/2,w:r.width};}});return b;})()" % json.dumps(frame))
    b = js(find)
    print('frame_width_before=%.2f' % b['w'])
    mouse('mouseMoved', b['x'], b['y'])
    print('details=' + js("document.getElementById('details').textContent"))
    mouse('mousePressed', b['x'], b['y'], 1); mouse('mouseReleased', b['x'], b['y'], 1)
    print('frame_width_zoomed=%.2f' % js(find)['w'])
    print('hidden_after_zoom=%d' % js("document.querySelectorAll('#frames > g.hide').length"))
    print('unzoom_visible=%d' % js("document.getElementById('unzoom').classList.contains('hide')?0:1"))
    # the key event's reply comes only after the prompt() it opens is answered
    k = post('Input.dispatchKeyEvent', {'type': 'rawKeyDown', 'modifiers': 2, 'key': 'f', 'code': 'KeyF', 'windowsVirtualKeyCode': 70}, session=s)
    d = wait(lambda x: x.get('method') == 'Page.javascriptDialogOpening')
    print('dialog=' + d['params']['type'])
    send('Page.handleJavaScriptDialog', {'accept': True, 'promptText': regex}, session=s)
    wait(lambda x: x.get('id') == k)
    time.sleep(0.2)
    print('matched=' + js("document.getElementById('matched').textContent"))
    print('highlighted=%d' % js("document.querySelectorAll('#frames rect[fill=\"rgb(230,0,230)\"]').length"))
    u = js("(function(){var r=document.getElementById('unzoom').getBoundingClientRect();return {x:r.x+r.width/2,y:r.y+r.height/2};})()")
    mouse('mousePressed', u['x'], u['y'], 1); mouse('mouseReleased', u['x'], u['y'], 1)
    print('frame_width_reset=%.2f' % js(find)['w'])
    print('hidden_after_reset=%d' % js("document.querySelectorAll('#frames > g.hide').length"))
finally:
    try: send('Browser.close')
    except BaseException: pass
    try: p.wait(timeout=10)
    except Exception: p.kill(); p.wait()
    subprocess.run(['rm', '-rf', prof])
PY
		timeout 120 python3 "$TMP/drive.py" "$CHROME" "$SVG" leaf_a '^leaf_' > "$TMP/cdp.out" 2> "$TMP/cdp.err"
		sed 's/^/# cdp: /' "$TMP/cdp.out"
		v() { sed -n "s/^$1=//p" "$TMP/cdp.out"; }
		if [ ! -s "$TMP/cdp.out" ]; then
			skip "Chromium DevTools pipe not usable: $(tail -1 "$TMP/cdp.err")"
		else
			la=$(sed -n 's/.*<title>leaf_a (\([0-9,]*\) samples.*/\1/p' "$SVG" | tr -d , | head -1)
			lpct=$(awk -v a="$la" -v t="$ours" 'BEGIN { printf "%.2f", 100 * a / t }')
			check "hover shows name, count and percentage" [ "$(v details)" = "Function: leaf_a ($la samples, $lpct%)" ]
			check "click zooms leaf_a to the full width, others hidden" [ "$(v frame_width_zoomed)" = 1180.00 -a "$(v hidden_after_zoom)" -gt 0 -a "$(v unzoom_visible)" = 1 ]
			mp=$(awk -v a="$la" -v b="$lb" -v t="$ours" 'BEGIN { p = 100 * (a + b) / t; if (p >= 99.995) print 100; else printf "%.2f", p }')
			check "Ctrl-F prompts; ^leaf_ matches $mp% (got $(v matched))" [ "$(v dialog)" = prompt -a "$(v matched)" = "Matched: $mp%" ]
			check "Reset Zoom restores the widths" [ "$(v frame_width_reset)" = "$(v frame_width_before)" -a "$(v hidden_after_reset)" = 0 ]
		fi
	else
		skip "no real profile: search and zoom not driven"
	fi
fi
