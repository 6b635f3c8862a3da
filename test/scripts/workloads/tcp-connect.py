#!/usr/bin/env python3
"""For the tcp tools: a listener on 127.0.0.1 and on ::1, port 47653 (or
the port given as argument), one connection to each, accepted and closed.
Prints nothing: it runs under dtx -c and shares its stdout."""
import socket
import sys

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 47653

for family, address in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((address, PORT))
    listener.listen(1)
    client = socket.create_connection((address, PORT))
    server, _ = listener.accept()
    client.close()
    server.close()
    listener.close()
