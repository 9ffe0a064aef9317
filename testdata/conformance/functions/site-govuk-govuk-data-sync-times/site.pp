notify { 'call 1: times': message => [data_sync_times('time_range'), data_sync_times('start_time'), data_sync_times('finish_time')] }
notify { 'call 2: numbers': message => [data_sync_times('start_hour'), data_sync_times('start_minute'), data_sync_times('finish_hour'), data_sync_times('finish_minute')] }
