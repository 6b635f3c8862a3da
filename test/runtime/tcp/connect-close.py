#!/usr/bin/python3
# A TCP connection on 127.0.0.1:47671, opened and closed by this process:
# listen, connect, accept, close both ends, close the listener.
import socket
import time

listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 47671))
listener.listen()
client = socket.create_connection(("127.0.0.1", 47671))
server, _ = listener.accept()
client.close()
time.sleep(0.05)
server.close()
listener.close()
time.sleep(0.2)
