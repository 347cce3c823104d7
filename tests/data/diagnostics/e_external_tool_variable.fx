p(a).
external e(?X) using ?T[] <- p(?X), p(?T).
