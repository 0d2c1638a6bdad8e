# SPDX-License-Identifier: BSD-3-Clause
# scripts/uniprof-flame.bash — bash completion for uniprof-flame.
#
# Installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/uniprof-flame (loaded on
# demand by bash-completion); or `source` it.  Commands and each
# command's options come from the program's own `COMMAND --help`, read
# once per shell and command, so the completion never falls behind the
# program; values are completed for the options that take a known set
# (--format, --colors, --delta, --palette, --embed, ...) and files for
# those that take a path.  tests/cli/t-completion.sh checks it.

_uniprof_flame_opts() { # CMD: the long and short options its --help lists
	local cmd=$1 var="_uniprof_flame_cache_${1//-/_}"
	if [ -z "${!var:-}" ]; then
		local help
		help=$("${_uniprof_flame_bin:-uniprof-flame}" "$cmd" --help 2>/dev/null)
		printf -v "$var" '%s' "$(printf '%s\n' "$help" | grep -E '^[[:space:]]+-' |
			grep -oE '(^|[[:space:],])--?[a-zA-Z][a-zA-Z0-9-]*(\[?=)?' |
			sed -E 's/^[[:space:],]+//; s/\[?=$/=/' | sort -u | tr '\n' ' ')"
	fi
	printf '%s' "${!var}"
}

_uniprof_flame() {
	local cur prev words cword cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	_uniprof_flame_bin=${COMP_WORDS[0]}
	cmd=record
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		render | fold | diff | record) cmd=${COMP_WORDS[i]}; break ;;
		--) return 0 ;; # a program's own arguments follow
		esac
	done
	case $prev in
	--format)
		local f="svg folded pprof speedscope"
		[ "$cmd" != record ] && f="$f perf"
		mapfile -t COMPREPLY < <(compgen -W "$f" -- "$cur"); return 0 ;;
	--colors | --colours)
		mapfile -t COMPREPLY < <(compgen -W "hot mem io wakeup chain java js perl python rust red green blue aqua yellow purple orange lib" -- "$cur"); return 0 ;;
	--bgcolors | --bgcolours)
		mapfile -t COMPREPLY < <(compgen -W "yellow blue green grey" -- "$cur"); return 0 ;;
	--delta) mapfile -t COMPREPLY < <(compgen -W "total self" -- "$cur"); return 0 ;;
	--palette) mapfile -t COMPREPLY < <(compgen -W "red-blue cb" -- "$cur"); return 0 ;;
	--embed) mapfile -t COMPREPLY < <(compgen -W "auto full none" -- "$cur"); return 0 ;;
	--by) mapfile -t COMPREPLY < <(compgen -W "lib" -- "$cur"); return 0 ;;
	--unwind) mapfile -t COMPREPLY < <(compgen -W "auto cfi fp" -- "$cur"); return 0 ;;
	--state) mapfile -t COMPREPLY < <(compgen -W "running runnable blocked offline unknown waiting on-cpu all" -- "$cur"); return 0 ;;
	-o | --output | --symbols | --nameattr | --folded | -x | --exe | -c | --config)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
	--raw) # record --raw FILE; fold --raw is a flag
		if [ "$cmd" = record ]; then mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0; fi ;;
	-p | --pid)
		if [ "$cmd" = record ]; then
			mapfile -t COMPREPLY < <(compgen -W "$(cd /proc 2>/dev/null && ls -d [0-9]* 2>/dev/null)" -- "$cur")
			return 0
		fi ;;
	--title | --subtitle | --width | --height | --minwidth | --fonttype | --fontsize | --fontwidth | \
	--countname | --nametype | --factor | --total | --notes | --encoding | --embed-budget | \
	--event-filter | --min-delta | -F | --frequency | -T | --time | --max-depth | --gdb | -d | --domain)
		return 0 ;; # a free value
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_uniprof_flame_opts "$cmd")" -- "$cur")
		[[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "render fold diff record" -- "$cur")
		return 0
	fi
	mapfile -t COMPREPLY < <(compgen -f -- "$cur") # inputs
}

complete -F _uniprof_flame uniprof-flame
