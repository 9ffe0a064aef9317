haproxy::generate_error_message('haproxy: bind and ipaddress are mutually exclusive')
