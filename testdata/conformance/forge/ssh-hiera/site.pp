include ssh
