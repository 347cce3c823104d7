john[tall; happy].
?- john[tall, NOT short].
?- john[?Property].
