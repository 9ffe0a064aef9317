include prometheus::node_exporter
