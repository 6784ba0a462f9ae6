# phux shell integration for bash, read through --rcfile in place of ~/.bashrc. It first reads
# the user's ~/.bashrc (the system-wide bashrc bash reads by itself, --rcfile or not, where it
# was built to), then marks prompts (OSC 133 A/B), command output (C) and its end with the exit
# status (D;N), and reports the working directory (OSC 7). The prompt, history and options stay
# the user's: only hooks are added around them.

if [ -r ~/.bashrc ]; then . ~/.bashrc; fi

if [[ -z ${_phux_integrated-} ]]; then
    _phux_integrated=1
    _phux_ran=
    _phux_user_ps1=
    _phux_wrapped_ps1=

    # First prompt hook: sees the command's status, reports it, and hands $? on unchanged.
    _phux_prompt_start() {
        local status=$?
        if [[ -n $_phux_ran ]]; then
            printf '\e]133;D;%s\a' "$status"
            _phux_ran=
        fi
        if [[ -n $_phux_wrapped_ps1 && ${PS1-} == "$_phux_wrapped_ps1" ]]; then
            PS1=$_phux_user_ps1
        fi
        return $status
    }

    # Last prompt hook: marks the prompt the user's hooks have built.
    _phux_prompt_end() {
        local status=$?
        printf '\e]7;file://%s%s\a' "${HOSTNAME-}" "${PWD// /%20}"
        _phux_user_ps1=${PS1-}
        PS1='\[\e]133;A\a\]'${PS1-}'\[\e]133;B\a\]'
        _phux_wrapped_ps1=$PS1
        return $status
    }

    # PS0 is printed once a command line is read, before it runs (not for an empty line); the
    # subscript assignment notes that a command ran without printing anything.
    PS0=${PS0-}'${_phux_no_such_array[_phux_ran=1]-}\e]133;C\a'

    if (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )); then
        PROMPT_COMMAND=(_phux_prompt_start "${PROMPT_COMMAND[@]}" _phux_prompt_end)
    else
        PROMPT_COMMAND="_phux_prompt_start${PROMPT_COMMAND:+
$PROMPT_COMMAND}
_phux_prompt_end"
    fi
fi
