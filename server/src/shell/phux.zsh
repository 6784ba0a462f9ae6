# phux shell integration for zsh: marks prompts (OSC 133 A, and B at the end of PS1), command
# output (C) and its end with the exit status (D;N), and reports the working directory (OSC 7).
# The prompt, history and options stay the user's.
typeset -g _phux_ran= _phux_user_ps1= _phux_wrapped_ps1=

_phux_precmd() {
    local ret=$?
    if [[ -n $_phux_ran ]]; then
        print -rn -- $'\e]133;D;'"$ret"$'\a'
        _phux_ran=
    fi
    print -rn -- $'\e]7;file://'"${HOST}${PWD// /%20}"$'\a'$'\e]133;A\a'
    # Run last next time, after hooks (themes) that rebuild the prompt.
    precmd_functions=(${precmd_functions:#_phux_precmd} _phux_precmd)
    if [[ $PS1 != $_phux_wrapped_ps1 ]]; then
        _phux_user_ps1=$PS1
        _phux_wrapped_ps1=$PS1$'%{\e]133;B\a%}'
    fi
    PS1=$_phux_wrapped_ps1
    return $ret
}

_phux_preexec() {
    [[ $PS1 == $_phux_wrapped_ps1 ]] && PS1=$_phux_user_ps1
    _phux_ran=1
    print -rn -- $'\e]133;C\a'
}

typeset -ga precmd_functions preexec_functions
precmd_functions+=(_phux_precmd)
preexec_functions+=(_phux_preexec)
