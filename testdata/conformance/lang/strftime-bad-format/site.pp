notify { strftime(Timespan(60), '%H:%x'): }
