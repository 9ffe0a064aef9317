include webserver
