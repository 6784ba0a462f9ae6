# phux shell integration for fish, read from a vendor conf dir phux put first on XDG_DATA_DIRS.
# Put XDG_DATA_DIRS back as it was, then mark prompts (OSC 133 A, B after the prompt), command
# output (C) and its end with the exit status (D;N), and report the working directory (OSC 7).
if set -q PHUX_USER_XDG_DATA_DIRS
    if test -n "$PHUX_USER_XDG_DATA_DIRS"
        set -gx XDG_DATA_DIRS $PHUX_USER_XDG_DATA_DIRS
    else
        set -e XDG_DATA_DIRS
    end
    set -e PHUX_USER_XDG_DATA_DIRS
end

if status is-interactive
    function __phux_prompt_start --on-event fish_prompt
        printf '\e]7;file://%s%s\a\e]133;A\a' $hostname (string replace -a ' ' '%20' -- $PWD)
        # Wrapped once the user's config has defined its prompt.
        if not functions -q __phux_user_prompt
            functions -c fish_prompt __phux_user_prompt
            function fish_prompt
                __phux_user_prompt
                printf '\e]133;B\a'
            end
        end
    end

    function __phux_preexec --on-event fish_preexec
        printf '\e]133;C\a'
    end

    function __phux_postexec --on-event fish_postexec
        printf '\e]133;D;%s\a' $status
    end
end
