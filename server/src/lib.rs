//! phux-server: the daemon: socket, sessions/windows/panes, PTYs, pane actors, event bus, flight recorder.
