# phux shell integration for zsh: phux starts zsh with ZDOTDIR pointing here. Put the user's
# ZDOTDIR back at once (so zsh reads their .zprofile, .zshrc and .zlogin itself), read their
# .zshenv as zsh would have, then add phux's hooks to an interactive shell.
if [[ -n ${PHUX_USER_ZDOTDIR-} ]]; then
    ZDOTDIR=$PHUX_USER_ZDOTDIR
else
    unset ZDOTDIR
fi
unset PHUX_USER_ZDOTDIR
if [[ -r ${ZDOTDIR:-$HOME}/.zshenv ]]; then
    source ${ZDOTDIR:-$HOME}/.zshenv
fi
if [[ -o interactive ]]; then
    source @PHUX_ZSH_INTEGRATION@
fi
