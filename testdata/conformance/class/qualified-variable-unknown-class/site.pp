notify { "port='${nosuch::port}'": }
