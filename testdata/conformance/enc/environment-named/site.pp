notify { "env=${environment} server_facts=${server_facts['environment']}": }
