extlib::remove_resource(Notify['never declared'])
