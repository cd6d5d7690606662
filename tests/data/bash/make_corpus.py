# Writes corpus.txt for tst_bash_differential: python3 make_corpus.py corpus.txt
# Writes tests/data/bash/corpus.txt. Every construct of the grammar, the
# classic cases and the attack examples; words are harmless, paths relative.
L = []
def add(*xs): L.extend(xs)
add("% The differential test's corpus (tst_bash_differential): one bash line per entry;",
    "% {{NL}} {{CR}} {{TAB}} stand for newline, carriage return and tab. Relative paths only:",
    "% a real bash runs every line (with recording shims for every command).")
add("% classic cases")
add("git checkout main && npm run dev", "a; b || c | d |& e & f{{NL}}g", "FOO=1 grep -r \"a b\" 'c d' src 2>&1 > out.txt",
    "echo 'a && b' \"c; d\" e\\;f", "echo $(rm -rf x) `ls` \"$(whoami)\"", "rm $FILE \"$x\" $(pwd)/y",
    "echo $((1 + 2)) ${HOME}", "(cd sub && ls) ; { make; }", "diff <(sort a) <(sort b)",
    "if [ -f x ]; then rm x; else touch x; fi", "for f in *.txt; do cat \"$f\"; done",
    "while read l; do echo $l; done < list", "[[ -n $x && -d y ]] && ls", "case $1 in a) ls;; (b|c) rm y;; esac; pwd",
    "f() { git status; }; function g { make; }", "! grep -q x f", "(( i++ )) && echo ok",
    "export A=1; X=2; local y; unset Z", "export A=$(date)", "ls # rm -rf x{{NL}}echo done",
    "cat <<'EOF' > f.txt{{NL}}rm -rf x{{NL}}EOF{{NL}}ls", "cat <<-END{{NL}}{{TAB}}rm x{{NL}}{{TAB}}END{{NL}}pwd",
    "ls \\{{NL}}  -la", "echo \"unterminated", "cat <<EOF{{NL}}no end",
    "echo a > b 2>&1 >> 'c d' < in &> all $(cat < nested) <<EOF > after{{NL}}body{{NL}}EOF",
    "> \"$OUT\" ; ls 2>/dev/null", "rm -rf ../x 'a b'", "chmod +x run.sh", "cp $SRC \"$DEST\" plain",
    "env FOO=1 rm x", "ls | xargs rm", "bash -c 'rm x'", "eval 'rm x'")
add("% attacks of issue 16")
add("echo $\"$(rm x)\"", "echo $\"`rm x`\"", "echo $`rm x`", "echo ${x:-$(rm x)}", "echo ${x:-`rm x`}",
    "echo \"${x:-$(rm x)}\"", "echo ${x/$(rm x)/b}", "echo $((1 + $(rm x)))", "(( $(rm x) ))", "echo $[ $(rm x) ]",
    "echo $(( `rm x` ))", "cat <<EOF{{NL}}$(rm x){{NL}}EOF", "cat <<EOF{{NL}}`rm x`{{NL}}EOF",
    "cat <<EOF{{NL}}${x:-$(rm x)}{{NL}}EOF", "cat <<$'EOF'{{NL}}x{{NL}}EOF{{NL}}rm x", "cat <<$'EOF'{{NL}}$(rm x){{NL}}EOF",
    "case $(rm x) in a) ;; esac", "case a in $(rm x)) ;; esac", "case a in b) ;; $(rm x)) ;; esac",
    "echo hi{{CR}}# ; rm x", "echo hi {{CR}}# ; rm x", "[ -f x ; rm y", "[ -f x || rm y ]", "[ a < b ]",
    "echo \"${x/'a'/$(rm x)}\"", "echo \"${x/'$(rm x)'/b}\"", "echo \"${x//'a'/'$(rm x)'}\"",
    "echo `echo \\`rm x\\``", "echo `echo \\$(rm x)`", "echo `echo \\\\$(rm x)`",
    "x='a[$(rm x)]'; echo $((x))", "x='a[$(rm x)]'; (( x ))", "declare 'a[$(rm x)]=1'", "declare a[$(rm x)]=1",
    "x='a[$(rm x)]'; [[ $x -eq 0 ]]", "[ -v 'a[$(rm x)]' ]", "test -v 'a[$(rm x)]'", "[[ -v a[$(rm x)] ]]",
    "x='$(rm x)'; echo ${x@P}", "x='a[$(rm x)]'; echo ${!x}", "x='a[$(rm x)]'; echo ${y[x]}",
    "x='a[$(rm x)]'; a[x]=1", "x='a[$(rm x)]'; read \"$x\" <<< 1", "x='a[$(rm x)]'; printf -v \"$x\" 1",
    "x='a[$(rm x)]'; unset \"$x\"", "x='a[$(rm x)]'; declare -n r=$x; echo $r", "declare -i n; n='a[$(rm x)]'",
    "x='a[$(rm x)]'; y=abc; echo ${y:x}", "x='a[$(rm x)]'; let x", "PS4='$(rm x)' ; set -x ; ls",
    "PATH=. ls", "IFS=x; ls", "alias ls=rm{{NL}}ls", "f() { rm x; }; f", "eval rm x", "sh -c 'rm x'",
    "source ./x", ". ./x", "exec rm x", "trap 'rm x' EXIT", "echo rm x | sh", "coproc rm x")
add("% simple commands and words")
words = ["a", "'a b'", "\"a b\"", "a\\ b", "$'a\\tb'", "$\"t\"", "\"$v\"", "$v", "${v}", "*.txt", "f?", "[ab]",
         "{a,b}", "{1..3}", "~", "~/d", "x=~/d", "-l", "--all=1", "./f", "../up", "''", "\"\"", "a'b'\"c\"",
         "\\$(rm x)", "'$(rm x)'", "\"\\$(rm x)\"", "$(echo a)", "`echo a`", "\"$(echo a)\"", "$(( 2 * 3 ))",
         "${v:-d}", "${v:=d}", "${v:+d}", "${v:?}", "${#v}", "${v#a}", "${v##a}", "${v%a}", "${v%%a}", "${v/a/b}",
         "${v//a/b}", "${v^}", "${v^^}", "${v,}", "${v,,}", "${v@Q}", "${v@U}", "${v:1}", "${v:1:2}", "${arr[0]}",
         "${arr[@]}", "${arr[*]}", "${#arr[@]}", "$1", "$@", "\"$@\"", "$*", "$#", "$?", "$$", "$!", "$-", "$0", "$_"]
for w in words:
    add("echo " + w, "ls " + w + " b", "x1 " + w)
add("% lists, pipelines, compound commands")
bodies = ["ls", "rm x", "echo a | grep a", "touch f && cat f", "mkdir d || echo no", "x1 ; x2", "! x3"]
for b in bodies:
    add("( " + b + " )", "{ " + b + "; }", "if " + b + "; then x4; fi", "if x5; then " + b + "; elif x6; then x7; else x8; fi",
        "while false; do " + b + "; done", "until true; do " + b + "; done", "for v in a b; do " + b + "; done",
        "for v; do " + b + "; done", "select v in a; do " + b + "; done", "case a in a) " + b + ";; *) x9;; esac",
        "case a in a) " + b + ";& b) x10;;& *) x11;; esac", b + " &", b + " |& cat", "time " + b,
        "$( " + b + " )", "echo $(" + b + ")", "echo \"$(" + b + ")\"", "echo `" + b.replace("|", "\\|") + "`",
        "cat <(" + b + ")", "tee >(" + b + ") < f", "x=$(" + b + ")", "x=\"$(" + b + ")\" y=2",
        b + " > out", b + " 2> err", b + " &> all", b + " >> app", b + " < in", b + " <<< word",
        b + " 2>&1", b + " >&2", b + " 3< in", b + " <> rw", b + " >| clob", b + " > $(x12)",
        b + " < \"$(x13)\"", b + " <<< \"$(x14)\"", "{ " + b + "; } > out", "( " + b + " ) 2>/dev/null",
        b + "{{NL}}x15", b + " \\{{NL}}  -x")
add("% arithmetic, tests, declarations")
add("echo $((1+2*3))", "echo $((0x10 + 8#7 + 2#101))", "echo $[1+2]", "(( 1 ))", "(( 2 > 1 )) && ls",
    "for ((i=0;i<2;i++)); do x16; done", "echo $((v))", "echo $((v + 1))",
    "[[ a == a ]]", "[[ a != b && c =~ ^c$ ]]", "[[ -f x || -d y ]]", "[[ ! -e x ]]", "[[ ( a < b ) ]]",
    "[[ 1 -eq 1 ]]", "[[ $v -lt 2 ]]", "[[ $(x17) == a ]]", "[[ a == $(x18) ]]", "[[ a =~ $(x19) ]]",
    "[ -f x ]", "[ ! -d x ]", "[ a = b ]", "[ \"$v\" = a ]", "[ -n \"$v\" ]", "[ \"$v\" ]", "[ ! \"$a\" = b ]",
    "[ $v = a ]", "[ a ]", "[ ]", "test -f x", "test \"$v\" != a", "test $v", "[ \"$(x20)\" = a ]",
    "declare x=1", "declare -a arr=(1 2)", "declare -A m=([k]=v)", "declare -r r=1", "declare -x e=1",
    "declare -g g", "typeset t=1", "local l=1", "readonly ro=1", "export ex=1 ey", "export -n ex",
    "unset x", "unset -f fn", "unset -v vv", "declare x=$(x21)", "export y=\"$(x22)\"", "local z=`x23`",
    "declare a[1]=2", "a[1]=2", "a[2]=$(x24)", "arr=(a b c)", "arr=(a $(x25) [3]=c)", "arr+=(d)", "x+=a",
    "read v", "read -r -p prompt v", "read -a arr", "read -d x v w", "mapfile -t lines < f", "readarray arr < f",
    "printf -v pv '%s' a", "printf '%s\\n' a b", "printf -- a", "getopts ab opt", "getopts ab opt a b",
    "wait", "wait %1", "set -e", "set -euo pipefail", "set +x", "set -o errexit", "set -- a b",
    "let x=1", "x=1 y=2 ls", "x=$(x26) ls", "A=1 B=2 env", "v=a; echo $v")
add("% wrappers")
for w in ["env", "env -i", "env A=1", "env -u A", "env -- ", "nice", "nice -n 5", "nice -5", "nohup", "timeout 5",
          "timeout -s KILL 5", "timeout --preserve-status 1", "time", "time -p", "command", "command -p",
          "builtin", "sudo", "sudo -u u1", "sudo -E -u u1", "doas", "doas -u u1", "stdbuf -o0", "stdbuf -oL -eL",
          "ionice -c 3", "setsid", "xargs", "xargs -0", "xargs -I{} ", "xargs -n 1 -P 2"]:
    add(w + " rm x", w + " $(x27) y", "echo a | " + w + " cat")
add("find . -name x -exec rm {} \\;", "find . -execdir rm {} +", "find . -ok rm {} ';'", "find . -name '*.c'",
    "find . -name \"$v\"", "find . -exec sh -c 'rm x' \\;", "find $d -delete", "find . $v")
add("% here-documents")
for start in ["EOF", "'EOF'", "\"EOF\"", "\\EOF", "E\"O\"F", "-EOF", "-'EOF'"]:
    tab = "{{TAB}}" if start.startswith("-") else ""
    end = "EOF"
    for body in ["text", "$v", "${v:-d}", "$(x28)", "`x29`", "\\$(x30)", "$((1+2))", "a \"$(x31)\" b", "'$(x32)'"]:
        add("cat <<" + start + "{{NL}}" + tab + body + "{{NL}}" + tab + end)
add("cat <<EOF | grep a{{NL}}$(x33){{NL}}EOF", "cat <<EOF; ls{{NL}}x{{NL}}EOF", "cat <<A <<B{{NL}}$(x34){{NL}}A{{NL}}$(x35){{NL}}B",
    "cat <<EOF > out{{NL}}x{{NL}}EOF{{NL}}rm x", "echo $(cat <<EOF{{NL}}$(x36){{NL}}EOF{{NL}})",
    "cat <<EOF{{NL}}EOF x{{NL}}$(x37){{NL}}EOF", "cat << EOF{{NL}}a{{NL}}EOF", "cat <<EOF{{NL}}a{{NL}} EOF{{NL}}EOF")
add("% comments, carriage returns, continuations, odd spacing")
add("ls # $(rm x)", "ls #$(rm x)", "ls#x", "ls a#b", "echo a;#x{{NL}}ls", "ls{{CR}}", "ls {{CR}}{{NL}}x38",
    "ls\\{{NL}}x", "l\\{{NL}}s", "ls \\{{NL}}\\{{NL}}-l", "  ls  ;  ;; ", "ls;;", ";ls", "ls &&", "&& ls", "| ls",
    "ls |", "ls ||{{NL}}x39", "ls &&{{NL}}x40", "ls |{{NL}}x41", "{ ls }", "{ls;}", "(ls)", "((ls))", "$(ls", "`ls",
    "echo )", "echo }", "echo {", "echo ]", "[[ a", "if ls", "case a in", "for v in a", "while", "do ls; done",
    "function", "f()", "x=", "=x", "echo \\", "echo '", "echo \"$(\"", "echo ${", "echo $((", "echo $[",
    "cat <<", "cat <<EOF", "<<<", "<(ls)", ">(ls)", "> out", "< in", "2>&1", "ls >", "ls <", "\\ls", "\"ls\" a",
    "'ls' a", "l's' a", "$'ls' a", "$\"ls\" a", "l{s,}", "l?", "./ls", "../ls", "~/ls", "ls\\ x", "x42=1 \\ls",
    "!ls", "! ls", "!! ls", "ls !", "time", "coproc", "exec", "exec > out", "exec 3>&1", "exit", "return",
    "break", "continue", "shift", ":", "true", "false", ". ", "source", "eval", "echo -e 'a\\nb'")
add("% name tricks and more hiding places")
add("\\eval rm x", "e''val rm x", "\"e\"val rm x", "builtin eval rm x", "command eval rm x", "env -- rm x",
    "xargs -I{} sh -c '{}'", "nice -n 5 -- rm x", "time -p rm x", "coproc { rm x; }", "select v in a; do rm x; done",
    "exec {fd}>f", "echo a >&$(rm x)", "rm x <<< \"$(rm y)\"", "cat <(<f)", "exec 3<>f", "cat <<\"EOF\"$(rm x){{NL}}a{{NL}}EOF",
    "cat <<EOF{{NL}}a \\{{NL}}$(rm x){{NL}}EOF", "echo ${v:-\"$(rm x)\"}", "echo \"${v:-'$(rm x)'}\"",
    "echo ${v:-'$(rm x)'}", "echo \"${v#'$(rm x)'}\"", "echo \"${v%\"$(rm x)\"}\"", "v=$'$(rm x)'; echo $v",
    "echo $'\\x24(rm x)'", "echo ~+ ~- ~root", "echo {a,$(rm x)}", "echo a{b,c}$(rm x)", "[[ a == @(b|$(rm x)) ]]",
    "case a in @(b|c)) rm x;; esac", "case a in *) rm x;; esac", "for v in {1..2}; do rm x; done",
    "while read -r l; do rm x; done < f", "x1 2>&1 | x2 |& x3 ; x4 & x5 && x6 || x7", "ls\t-l", "ls{{TAB}}rm",
    "f=1; echo $f", "echo $((16#ff))", "echo $(( 1 ? 2 : 3 ))", "echo $(( -1 ))", "echo $(( (1) ))",
    "printf '%d' \"$v\"", "printf '%s' $(rm x)", "command -v rm", "type rm", "hash", "declare -f", "export -f fn",
    "declare -p", "local -", "readonly -p", "unset -f rm", "echo ${v@Q}", "echo ${v@a}", "echo ${v@E}",
    "[ -f \"$a\" -a -d \"$b\" ]", "[ \"$a\" -eq 1 ]", "[ $# -eq 0 ]", "[ \"$#\" -eq 0 ]", "test ! -e \"$v\"")
import sys
open(sys.argv[1], "w").write("\n".join(L) + "\n")
print(len([l for l in L if not l.startswith("%")]))
