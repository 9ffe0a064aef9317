notify { 'x': message => data_sync_times('lunch') }
