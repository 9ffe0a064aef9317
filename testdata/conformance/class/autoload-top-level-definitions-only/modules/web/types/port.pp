type Web::Port = Integer[1, 65535]
